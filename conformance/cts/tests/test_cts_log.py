#!/usr/bin/env python3
"""conformance/cts/tests/test_cts_log.py — the CTS runner's log parser and tier reader on
captured logs (fixtures/: output of the CTS's test_computeinfo against hsacl, captured on
this machine; see fixtures/README). Exit 0 when every check holds."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(HERE))
import cts_log  # noqa: E402

failed = 0


def check(cond, what):
    global failed
    if not cond:
        failed += 1
        print(f"FAIL: {what}")


def fixture(name):
    with open(os.path.join(HERE, "fixtures", name)) as f:
        return f.read()


# 1. A passing run: one pass, four skips (two "test not supported", one version skip).
r = cts_log.parse_log(fixture("computeinfo-pass.log"), 0)
check(r.order == ["computeinfo", "extended_versioning", "device_uuid", "conformance_version",
                  "pci_bus_info"], f"order {r.order}")
check((r.passed, r.failed, r.skipped) == (1, 0, 4), f"counts {r.passed, r.failed, r.skipped}")
check(r.subtests["conformance_version"] == "skip", "version skip")
check(r.summary == ("PASSED", 1, 1), f"summary {r.summary}")
check(r.unfinished is None and r.ok, "pass run is ok")

# 2. The same with the harness's results file: identical outcomes.
rj = cts_log.parse_log(fixture("computeinfo-pass.log"), 0, fixture("computeinfo-pass.json"))
check(rj.subtests == r.subtests, "results file agrees with the log")

# 3. A failing run (clGetSupportedImageFormats was a stub): the sub-test fails, the rest
#    skip, the summary is FAILED, the run is not ok even with exit status 0.
f = cts_log.parse_log(fixture("computeinfo-images-fail.log"), 1)
check((f.passed, f.failed, f.skipped) == (0, 1, 4), f"fail counts {f.passed, f.failed, f.skipped}")
check(f.failures() == ["computeinfo"], f"failures {f.failures()}")
check(not f.ok, "fail run not ok")
check(not cts_log.parse_log(fixture("computeinfo-images-fail.log"), 0).ok,
      "FAILED summary wins over exit 0")

# 4. A process killed inside a sub-test (the log cut after "device_uuid..."): that sub-test
#    failed, the ones never reached are absent, the run is not ok.
text = fixture("computeinfo-pass.log")
cut = text[:text.index("device_uuid...") + len("device_uuid...\n")]
c = cts_log.parse_log(cut, "signal 11")
check(c.unfinished == "device_uuid", f"unfinished {c.unfinished}")
check(c.failures() == ["device_uuid"], f"crash failures {c.failures()}")
check("conformance_version" not in c.subtests, "unreached sub-test absent")
check(not c.ok, "crash not ok")
#    A results file truncated by the crash is ignored, not fatal.
c2 = cts_log.parse_log(cut, "timeout", fixture("computeinfo-pass.json")[:40])
check(c2.failures() == ["device_uuid"], "truncated results file ignored")

# 5. A suite that gives up in initialisation, without a results file.
init = "Test skipped while initialization\nSKIPPED 3 of 3 tests.\n"
i = cts_log.parse_log(init, 0)
check((i.skipped, i.failed) == (3, 0) and i.init == "skipped", "init skip")
i = cts_log.parse_log("Test failed while initialization\nFAILED 2 of 2 tests.\n", 1)
check(i.failed == 2 and not i.ok, "init failure")

#    Captured: a suite that needs a higher OpenCL version than the device reports.
v = cts_log.parse_log(fixture("c11_atomics-version-skip.log"), 0)
check((v.passed, v.failed, v.skipped) == (0, 0, 34) and v.ok, f"version skip {v.skipped}")

# 6. Multi-test summary lines.
m = cts_log.parse_log("a...\na passed\nb...\nb FAILED\nFAILED 1 of 2 tests.\n", 1)
check(m.summary == ("FAILED", 1, 2) and (m.passed, m.failed) == (1, 1), "summary n of m")

#    A sub-test's own lines shaped like results are not sub-tests: test_basic's intmath_*
#    print "test_add... passed" per operation, global_linear_id "get_global_linear_id
#    passed" (CTS v2026-07-09-00); only the names the harness started count.
inner = ("intmath_int...\ntest_add... passed\ntest_sub... FAILED\nintmath_int passed\n"
         "global_linear_id...\nget_global_linear_id passed\nglobal_linear_id passed\n"
         "PASSED 2 of 2 tests.\n")
n = cts_log.parse_log(inner, 0)
check(n.order == ["intmath_int", "global_linear_id"] and (n.passed, n.failed) == (2, 0)
      and n.ok, f"inner result lines ignored: {n.subtests}")

# 7. Tier files in the CTS's CSV format, as the runner reads them.
import importlib.machinery, importlib.util  # noqa: E401,E402
loader = importlib.machinery.SourceFileLoader("cts_run", os.path.join(HERE, "..", "run"))
spec = importlib.util.spec_from_loader("cts_run", loader)
run = importlib.util.module_from_spec(spec)
loader.exec_module(run)
with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as t:
    t.write("# comment\n\nBasic,basic/test_basic\n"
            "Math,math_brute_force/test_bruteforce -w\n"
            "CL_DEVICE_TYPE_CPU, Images (linear),images/kernel_read_write/test_image_streams "
            "CL_FILTER_LINEAR\n"
            "Vectors, vectors/test_vectors\n")
entries = run.read_tier(t.name)
os.unlink(t.name)
check(entries == [("Basic", ["basic/test_basic"], None),
                  ("Math", ["math_brute_force/test_bruteforce", "-w"], None),
                  ("Images (linear)", ["images/kernel_read_write/test_image_streams",
                                       "CL_FILTER_LINEAR"], "CL_DEVICE_TYPE_CPU"),
                  ("Vectors", ["vectors/test_vectors"], None)], f"tier entries {entries}")
for tier in ("smoke", "core", "full"):
    path = os.path.join(HERE, "..", tier + ".csv")
    check(os.path.exists(path) and len(run.read_tier(path)) > 0, f"{tier}.csv readable")

# 8. The table: totals and the failure list with known reasons.
rows = [("Compute Info", ["computeinfo/test_computeinfo"], f, 2.0),
        ("Compute Info 2", ["computeinfo/test_computeinfo"], r, 1.0)]
tab = run.table("smoke", rows, "abc", "def", 3.0,
                {("Compute Info", "computeinfo"): "image formats stub"}, "notes")
check("| **total** | 2 entries | 1 | 1 | 8 | 0 |" in tab, "table totals")
check("- Compute Info / `computeinfo`: image formats stub" in tab, "known reason listed")

# 9. -j 2: entries run side by side (the slow first entry finishes last) and the table keeps
#    the tier's order. A fake CTS tree of two shell scripts and a build dir with an ICD file.
import shutil  # noqa: E402
import subprocess  # noqa: E402

tmp = tempfile.mkdtemp(prefix="hsacl-cts-j-")
try:
    os.makedirs(os.path.join(tmp, "cts", "test_conformance", "fake"))
    os.makedirs(os.path.join(tmp, "build", "icd-vendors"))
    open(os.path.join(tmp, "build", "icd-vendors", "hsacl.icd"), "w").close()
    for exe, delay in (("test_slow", 2), ("test_fast", 0)):
        path = os.path.join(tmp, "cts", "test_conformance", "fake", exe)
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\nsleep {delay}\necho '{exe}_sub...'\necho '{exe}_sub passed'\n"
                    f"echo 'PASSED sub-test.'\necho 'PASSED test.'\n")
        os.chmod(path, 0o755)
    tier = os.path.join(tmp, "two.csv")
    with open(tier, "w") as f:
        f.write("Slow,fake/test_slow\nFast,fake/test_fast\n")
    p = subprocess.run([sys.executable, os.path.join(HERE, "..", "run"), "--cts",
                        os.path.join(tmp, "cts"), "--build", os.path.join(tmp, "build"),
                        "--tier", tier, "--cts-commit", "fake", "-j", "2", "--no-write"],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, OCL_ICD_VENDORS=os.path.join(tmp, "none")))
    out = p.stdout
    check(p.returncode == 0, f"-j 2 run exit {p.returncode}: {out[-500:]} {p.stderr[-500:]}")
    done = [ln.split(":")[0].strip() for ln in out.splitlines() if " passed, " in ln]
    check(done == ["Fast", "Slow"], f"-j 2: the fast entry finishes first ({done})")
    rows = [ln.split("|")[1].strip() for ln in out.splitlines()
            if ln.startswith("| ") and "fake/" in ln]
    check(rows == ["Slow", "Fast"], f"-j 2: the table keeps the tier's order ({rows})")
    check("2 entries at a time (-j 2)" in out, "-j 2 named in the table's notes")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print("cts parser:", "ok" if not failed else f"{failed} checks failed")
sys.exit(1 if failed else 0)
