"""conformance/cts/cts_log.py — reads what one Khronos OpenCL CTS test binary printed.

Every CTS binary built on test_common/harness prints, per selected sub-test:

    <name>...                              before it runs
    <name> passed | <name> FAILED          its result (after its start line; a line of the
                                           same form for a name never started is the
                                           sub-test's own output, not a result)
    <name> test not supported              the test skipped itself (TEST_SKIPPED_ITSELF)
    <name> skipped (requires at least ...) the device's version is too low
    <name> test currently not implemented  no function behind the name

and at the end `PASSED n of n tests.`, `PASSED test.`, `FAILED f of n tests.` or
`FAILED test.`; a suite that gives up during initialisation prints `Test skipped|failed
while initialization` then `SKIPPED|FAILED n of n tests.` When the environment names a file
in CL_CONFORMANCE_RESULTS_FILENAME the harness also writes {"results": {name: pass|fail|
skip}} there; that file, when present and complete, wins over the log.

A binary that dies (signal, timeout) leaves a sub-test started and never finished: it is
counted as failed, with the way the process ended as the reason.
"""
import json
import re

_START = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+)\.\.\.\s*$")
_RESULT = re.compile(
    r"^(?P<name>[A-Za-z0-9_.\-]+) (?P<what>passed|FAILED|test not supported|"
    r"skipped \(requires at least .*\)|test currently not implemented)\s*$")
_SUMMARY = re.compile(r"^(?P<word>PASSED|FAILED|SKIPPED) (?:(?P<a>\d+) of (?P<b>\d+) )?"
                      r"(?P<what>[A-Za-z _\-]+?)\.\s*$")
_INIT = re.compile(r"^Test (?P<what>skipped|failed) while initialization\s*$")

_OUTCOME = {
    "passed": "pass",
    "FAILED": "fail",
    "test not supported": "skip",
    "test currently not implemented": "skip",
}


class Result:
    """Outcome of one CTS binary run: sub-test outcomes in order, the summary line."""

    def __init__(self):
        self.subtests = {}      # name -> "pass" | "fail" | "skip"
        self.order = []         # names in the order the log first mentions them
        self.unfinished = None  # sub-test running when the log ends, if any
        self.summary = None     # (word, failed_or_passed, total) from the last summary line
        self.init = None        # "skipped" | "failed" when the suite stopped in initialisation
        self.exit = None        # process status: int exit code, "signal N", "timeout"
        self.not_run = 0        # sub-tests never reached (set by the runner)

    def _set(self, name, outcome):
        if name not in self.subtests:
            self.order.append(name)
        self.subtests[name] = outcome

    def count(self, outcome):
        return sum(1 for v in self.subtests.values() if v == outcome)

    @property
    def passed(self):
        return self.count("pass")

    @property
    def failed(self):
        return self.count("fail")

    @property
    def skipped(self):
        return self.count("skip")

    @property
    def ok(self):
        """True when the binary ran to its end, exit 0, and no sub-test failed."""
        return (self.exit == 0 and self.failed == 0 and self.unfinished is None
                and self.init != "failed"
                and not (self.summary and self.summary[0] == "FAILED"))

    def failures(self):
        return [n for n in self.order if self.subtests[n] == "fail"]


def parse_log(text, exit_status=None, results_json=None):
    """Parses the stdout+stderr text of one CTS binary. exit_status: the process's exit code
    (int), "signal N" or "timeout". results_json: the text of the harness's results file."""
    r = Result()
    r.exit = exit_status
    running = None
    started = set()
    for raw in text.splitlines():
        line = raw.rstrip("\r")
        m = _RESULT.match(line)
        if m and m.group("name") == "Test" and m.group("what").startswith("skipped"):
            continue  # the whole suite's version skip, followed by the initialisation lines
        if m and m.group("name") not in started:
            # A sub-test's own line that looks like a result ("test_add... passed",
            # "get_global_linear_id passed"): the harness names a sub-test before its result.
            continue
        if m:
            what = m.group("what")
            r._set(m.group("name"), _OUTCOME.get(what, "skip"))
            if running == m.group("name"):
                running = None
            continue
        m = _START.match(line)
        if m:
            running = m.group("name")
            started.add(running)
            continue
        m = _INIT.match(line)
        if m:
            r.init = m.group("what")
            continue
        m = _SUMMARY.match(line)
        if m:
            a = int(m.group("a")) if m.group("a") else 1
            b = int(m.group("b")) if m.group("b") else 1
            r.summary = (m.group("word"), a, b)
    if results_json:
        try:
            data = json.loads(results_json)
            for name, outcome in data.get("results", {}).items():
                if outcome in ("pass", "fail", "skip"):
                    r._set(name, outcome)
                    if running == name:
                        running = None
        except (ValueError, AttributeError):
            pass  # a truncated file (the process died while writing it): the log stands
    if running is not None and running not in r.subtests:
        # Started, never finished: the process died inside it (or the log was cut).
        r.unfinished = running
        r._set(running, "fail")
    if r.init and not r.subtests:
        # No results file: the suite's sub-test names are unknown, only their number.
        n = r.summary[2] if r.summary else 1
        for i in range(n):
            r._set(f"<initialization {i + 1}>", "fail" if r.init == "failed" else "skip")
    return r
