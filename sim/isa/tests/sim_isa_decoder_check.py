#!/usr/bin/env python3
"""Checks sim's decoder (sim/isa/sim_decode.c) for one target against LLVM's (issue 25; per
target: issue 28).

Usage: sim_isa_decoder_check.py DUMPER OPCODES_DEF LLVM_MC LLVM_OBJDUMP WORKDIR [RANDOM_WORDS
       [TARGET]]

TARGET is gfx906 (the default) or gfx90a; OPCODES_DEF is that target's
sim_opcodes_<target>.def. LLVM runs with -mcpu=TARGET and the dumper decodes for TARGET.
gfx90a adds fields gfx906 does not have: the ACC bit of DS/FLAT/GLOBAL/SCRATCH/MUBUF/MTBUF/
MIMG data (an AGPR printed as aN; sim adds 256 to the data and destination fields), the SCC
cache bit, and the VOP3P-MAI fields of v_mfma_* (cbsz, abid, blgp; acc_cd from an AGPR
destination). Its probes use even register numbers: gfx90a refuses odd VGPR tuples.

1. Probe: every opcode slot of sim_opcodes_<target>.def is encoded with each field set to a distinct
   value (VOP3 src0 = v1, src1 = v2, ...) and disassembled by llvm-objdump-19. Matching the
   printed operands back to those values tells, per LLVM mnemonic, which encoding field each
   printed operand comes from (its "roles"), and gives the mnemonic's assembly syntax.
2. Corpus: from each probe line the generator writes assembly variants, one operand kind at a
   time (SGPR, VGPR, special registers, integer and float inline constants, literals) and one
   modifier set at a time (neg/abs/sext, clamp, omod, op_sel, SDWA selects, DPP controls,
   offsets, glc/slc/lds/tfe/gds, offen/idxen, MIMG dmask/unorm/da/a16/d16/tfe/lwe, formats).
   llvm-mc-19 assembles them; the lines it rejects are not valid gfx906 forms and are only
   counted.
3. The accepted encodings (and, with RANDOM_WORDS, a stream of random dwords) are written to
   an object, disassembled by llvm-objdump-19, and decoded by sim at the same offsets
   (the DUMPER program, sim_isa_decode_dump.c).
4. Comparison: structured, not textual. LLVM's line is parsed into the mnemonic, the length
   (the words objdump prints) and, through the roles, the value of each operand field
   (register numbers, 9-bit source codes including inline constants and literals, and every
   modifier); these are compared with the fields sim decoded. That catches a wrong opcode,
   a wrong operand field, a wrong length with literals and wrong SDWA/DPP/memory controls
   without an LLVM-syntax printer in C.

Every disagreement on a word LLVM decodes is a failure. What is not compared:
 - register widths (v[0:3]): the decoder records the first register, the handler the width;
 - a modifier or cache bit LLVM never prints for a mnemonic (an integer VOP3 has no neg, an
   SMEM cache flush no glc): the instruction does not have the field, so its bits mean
   nothing;
 - the operands of a line LLVM marks "/*Invalid ...*/" (an operand it cannot name): sim may
   refuse such a word; if it decodes it, mnemonic and length must still agree;
 - words LLVM refuses that sim decodes are counted per encoding ("note" lines), not failed.
   LLVM refuses a word whose unused fields are not zero (a DS store's vdst, an image load's
   ssamp, a VOP3 src2 of a two-source opcode), a 64-bit SGPR operand at an odd register, SDWA
   or DPP on an opcode without those forms; sim's decoder has no per-opcode operand table and
   ignores unused fields. Reserved source codes (209-234) and SGPR destination codes above 127
   it refuses, and those are compared.
 - the graphics-only encodings (VINTRP, EXP, sim_isa_graphics_only.def): sim refuses them or
   decodes them to the same opcode without a handler; both fault.
 - llvm-objdump-19 crashes on an SDWA dword whose select fields hold 7 (reserved), so the
   random stream has none (random_stream()).
"""
import os
import random
import re
import struct
import subprocess
import sys

# The target under test (main() sets it from the command line).
MCPU = "gfx906"
GFX10 = False
# Encodings whose data registers an ACC bit makes AGPRs (gfx90a): sim adds 256 to them.
ACC_ENCS = {"DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "MIMG"}

# ---- The opcode table --------------------------------------------------------------------


def read_def(path):
    rows = []
    pat = re.compile(r"^SIM_OPCODE\((\w+), (\d+), (\w+)\)")
    with open(path) as f:
        for line in f:
            m = pat.match(line)
            if m:
                rows.append((m.group(1), int(m.group(2)), m.group(3)))
    return rows


# ---- Probes: one word sequence per opcode slot, distinct field values --------------------

# Field values of the probes. Each value is distinct within its encoding so that a printed
# operand names its field; register operands are aligned for the widest register tuple. LLVM
# refuses a word whose unused fields are not zero, so every subset of the optional fields is
# tried and the largest one LLVM decodes is kept.
PROBES = {
    # encoding: (word builder, {field: value}, {printed value: role})
    "SOP2": (lambda n, f: [0x80000000 | n << 23 | f["vdst"] << 16 | f["src1"] << 8 | f["src0"]],
             {"src0": 1, "src1": 2, "vdst": 3}),
    "SOPK": (lambda n, f: [0xB0000000 | n << 23 | f["vdst"] << 16 | f["imm"]],
             {"vdst": 3, "imm": 0x1234}),
    "SOP1": (lambda n, f: [0xBE800000 | f["vdst"] << 16 | n << 8 | f["src0"]],
             {"src0": 1, "vdst": 3}),
    "SOPC": (lambda n, f: [0xBF000000 | n << 16 | f["src1"] << 8 | f["src0"]],
             {"src0": 1, "src1": 2}),
    "SOPP": (lambda n, f: [0xBF800000 | n << 16 | f["imm"]], {"imm": 0x1234}),
    "SMEM": (lambda n, f: [0xC0000000 | n << 18 | (1 << 17 if f["smem_offset"] else 0)
                           | f["vdst"] << 6 | f["sbase"] // 2,
                           f["smem_offset"]],
             {"vdst": 20, "sbase": 10, "smem_offset": 0x1234}),
    "VOP2": (lambda n, f: [n << 25 | f["vdst"] << 17 | f["src1"] << 9 | f["src0"] | 256],
             {"src0": 1, "src1": 2, "vdst": 3}),
    "VOP1": (lambda n, f: [0x7E000000 | f["vdst"] << 17 | n << 9 | f["src0"] | 256],
             {"src0": 1, "vdst": 3}),
    "VOPC": (lambda n, f: [0x7C000000 | n << 17 | f["src1"] << 9 | f["src0"] | 256],
             {"src0": 1, "src1": 2}),
    "VOP2_SDWA": (lambda n, f: [n << 25 | f["vdst"] << 17 | f["src1"] << 9 | 0xF9,
                                0x06060600 | f["src0"]], {"src0": 1, "src1": 2, "vdst": 3}),
    "VOP1_SDWA": (lambda n, f: [0x7E000000 | f["vdst"] << 17 | n << 9 | 0xF9,
                                0x00060600 | f["src0"]], {"src0": 1, "vdst": 3}),
    "VOPC_SDWA": (lambda n, f: [0x7C000000 | n << 17 | f["src1"] << 9 | 0xF9,
                                0x06060000 | f["src0"] | (1 << 15 | f["sdst"] << 8 if f["sdst"] else 0)],
                  {"src0": 1, "src1": 2, "sdst": 10}),
    "VOP2_DPP": (lambda n, f: [n << 25 | f["vdst"] << 17 | f["src1"] << 9 | 0xFA,
                               0xFF00E400 | f["src0"]], {"src0": 1, "src1": 2, "vdst": 3}),
    "VOP1_DPP": (lambda n, f: [0x7E000000 | f["vdst"] << 17 | n << 9 | 0xFA,
                               0xFF00E400 | f["src0"]], {"src0": 1, "vdst": 3}),
    "VOPC_DPP": (lambda n, f: [0x7C000000 | n << 17 | f["src1"] << 9 | 0xFA,
                               0xFF00E400 | f["src0"]], {"src0": 1, "src1": 2}),
    "VOP3": (lambda n, f: [0xD0000000 | n << 16 | f["sdst"] << 8 | f["vdst"],
                           f["src0"] | f["src1"] << 9 | f["src2"] << 18],
             {"src0": 0x101, "src1": 0x102, "src2": 0x103, "vdst": 4, "sdst": 6}),
    "VOP3_S": (lambda n, f: [0xD0000000 | n << 16 | f["sdst"] << 8 | f["vdst"],
                             f["src0"] | f["src1"] << 9 | f["src2"] << 18],
               {"src0": 10, "src1": 12, "src2": 14, "vdst": 4, "sdst": 6}),
    "VOP3P": (lambda n, f: [0xD3804000 | n << 16 | f["vdst"],
                            0x18000000 | f["src0"] | f["src1"] << 9 | f["src2"] << 18],
              {"src0": 0x101, "src1": 0x102, "src2": 0x103, "vdst": 4}),
    "VOP3P_S": (lambda n, f: [0xD3804000 | n << 16 | f["vdst"],
                              0x18000000 | f["src0"] | f["src1"] << 9 | f["src2"] << 18],
                {"src0": 10, "src1": 12, "src2": 14, "vdst": 4}),
    "DS": (lambda n, f: [0xD8000000 | n << 17 | f["offset"],
                         f["addr"] | f["data0"] << 8 | f["data1"] << 16 | f["vdst"] << 24],
           {"addr": 5, "data0": 6, "data1": 7, "vdst": 8, "offset": 0x2211}),
    "FLAT": (lambda n, f: [0xDC000000 | n << 18, f["addr"] | f["data0"] << 8 | f["vdst"] << 24],
             {"addr": 5, "data0": 7, "vdst": 8}),
    "SCRATCH": (lambda n, f: [0xDC004000 | n << 18, f["addr"] | f["data0"] << 8 | 0x7F << 16 | f["vdst"] << 24],
                {"addr": 5, "data0": 7, "vdst": 8}),
    "GLOBAL": (lambda n, f: [0xDC008000 | n << 18, f["addr"] | f["data0"] << 8 | 0x7F << 16 | f["vdst"] << 24],
               {"addr": 5, "data0": 7, "vdst": 8}),
    "MUBUF": (lambda n, f: [0xE0000000 | n << 18 | (1 << 12 if f["addr"] else 0) | 0x123,
                            f["addr"] | f["vdst"] << 8 | f["srsrc"] // 4 << 16 | f["soffset"] << 24],
              {"addr": 5, "vdst": 8, "srsrc": 16, "soffset": 30}),
    "MTBUF": (lambda n, f: [0xE8000000 | n << 15 | (1 << 12 if f["addr"] else 0) | 4 << 19 | 7 << 23 | 0x123,
                            f["addr"] | f["vdst"] << 8 | f["srsrc"] // 4 << 16 | f["soffset"] << 24],
              {"addr": 5, "vdst": 8, "srsrc": 16, "soffset": 30}),
    "MIMG": (lambda n, f: [0xF0000F00 | n << 18,
                           f["vaddr"] | f["vdata"] << 8 | f["srsrc"] // 4 << 16 | f["ssamp"] // 4 << 21],
             {"vaddr": 5, "vdata": 8, "srsrc": 16, "ssamp": 24}),
}

# Variants: returning atomics (glc), MUBUF/FLAT loads to LDS, GLOBAL/SCRATCH with saddr,
# each printed with other operands.
def derive_variants():
  for _k in ("FLAT", "GLOBAL", "SCRATCH"):
    PROBES[_k + "_GLC"] = (lambda b: lambda n, f: [b(n, f)[0] | 1 << 16, b(n, f)[1]])(PROBES[_k][0]), PROBES[_k][1]
    PROBES[_k + "_LDS"] = (lambda b: lambda n, f: [b(n, f)[0] | 1 << 13, b(n, f)[1]])(PROBES[_k][0]), PROBES[_k][1]
  for _k in ("GLOBAL", "SCRATCH"):
    PROBES[_k + "_SADDR"] = ((lambda b: lambda n, f: [b(n, f)[0], b(n, f)[1] & ~(0x7F << 16) | f["saddr"] << 16])(PROBES[_k][0]),
                             dict(PROBES[_k][1], saddr=16))
  PROBES["MUBUF_GLC"] = (lambda n, f: [PROBES["MUBUF"][0](n, f)[0] | 1 << 14, PROBES["MUBUF"][0](n, f)[1]]), PROBES["MUBUF"][1]
  PROBES["MUBUF_LDS"] = (lambda n, f: [PROBES["MUBUF"][0](n, f)[0] | 1 << 16, PROBES["MUBUF"][0](n, f)[1]]), PROBES["MUBUF"][1]
  # gfx9: SOE adds SOFFSET; gfx10's SMEM always has SOFFSET (bit 14 is DLC there).
  PROBES["SMEM_SOE"] = ((lambda n, f: [PROBES["SMEM"][0](n, f)[0] | (0 if GFX10 else 1 << 14),
                                       PROBES["SMEM"][0](n, f)[1] & 0x1FFFFFF | 30 << 25]),
                        PROBES["SMEM"][1])


derive_variants()


def gfx10_probes():
    """gfx10's layouts (gfx1030): SMEM under 0xF4 with OFFSET and SOFFSET (125, null, for
    none) always present, VOP3 under 0xD4 with a 10-bit opcode, VOP3P under 0xCC, the DS
    opcode in bits 25:18, SADDR null (125) for off, the MTBUF opcode in 18:16 plus word-1 bit
    21 and one FORMAT field, MIMG's opcode bit 7 in bit 0."""
    P = PROBES
    P["SMEM"] = (lambda n, f: [0xF4000000 | n << 18 | f["vdst"] << 6 | f["sbase"] // 2,
                               f["smem_offset"] | 125 << 25], P["SMEM"][1])
    for k in ("VOP3", "VOP3_S"):
        P[k] = (lambda n, f: [0xD4000000 | n << 16 | f["sdst"] << 8 | f["vdst"],
                              f["src0"] | f["src1"] << 9 | f["src2"] << 18], P[k][1])
    for k in ("VOP3P", "VOP3P_S"):
        P[k] = (lambda n, f: [0xCC004000 | n << 16 | f["vdst"],
                              0x18000000 | f["src0"] | f["src1"] << 9 | f["src2"] << 18], P[k][1])
    P["DS"] = (lambda n, f: [0xD8000000 | n << 18 | f["offset"],
                             f["addr"] | f["data0"] << 8 | f["data1"] << 16 | f["vdst"] << 24],
               P["DS"][1])
    for k, seg in (("FLAT", 0), ("SCRATCH", 0x4000), ("GLOBAL", 0x8000)):
        P[k] = ((lambda seg: lambda n, f: [0xDC000000 | seg | n << 18,
                                           f["addr"] | f["data0"] << 8 | 125 << 16 | f["vdst"] << 24])(seg),
                P[k][1])
    P["MTBUF"] = (lambda n, f: [0xE8000000 | (n & 7) << 16 | (1 << 12 if f["addr"] else 0) | 22 << 19 | 0x123,
                                f["addr"] | f["vdst"] << 8 | f["srsrc"] // 4 << 16 | (n >> 3) << 21 | f["soffset"] << 24],
                  P["MTBUF"][1])
    P["MIMG"] = (lambda n, f: [0xF0000F00 | (n & 0x7F) << 18 | n >> 7,
                               f["vaddr"] | f["vdata"] << 8 | f["srsrc"] // 4 << 16 | f["ssamp"] // 4 << 21],
                 P["MIMG"][1])
    derive_variants()

def even_probes():
    """gfx90a refuses VGPR tuples at odd registers: every VGPR field of the probes gets a
    distinct even value (SGPR fields keep theirs)."""
    even = {"VOP2": {"src0": 2, "src1": 4, "vdst": 6}, "VOP1": {"src0": 2, "vdst": 6},
            "VOPC": {"src0": 2, "src1": 4},
            "VOP2_SDWA": {"src0": 2, "src1": 4, "vdst": 6}, "VOP1_SDWA": {"src0": 2, "vdst": 6},
            "VOPC_SDWA": {"src0": 2, "src1": 4, "sdst": 10},
            "VOP2_DPP": {"src0": 2, "src1": 4, "vdst": 6}, "VOP1_DPP": {"src0": 2, "vdst": 6},
            "VOPC_DPP": {"src0": 2, "src1": 4},
            "VOP3": {"src0": 0x102, "src1": 0x104, "src2": 0x106, "vdst": 8, "sdst": 10},
            "VOP3P": {"src0": 0x102, "src1": 0x104, "src2": 0x106, "vdst": 8},
            "DS": {"addr": 5, "data0": 6, "data1": 8, "vdst": 10, "offset": 0x2211},
            "FLAT": {"addr": 4, "data0": 6, "vdst": 8},
            "SCRATCH": {"addr": 5, "data0": 6, "vdst": 8},
            "GLOBAL": {"addr": 4, "data0": 6, "vdst": 8},
            "MUBUF": {"addr": 5, "vdst": 8, "srsrc": 16, "soffset": 30},
            "MTBUF": {"addr": 5, "vdst": 8, "srsrc": 16, "soffset": 30},
            "MIMG": {"vaddr": 6, "vdata": 8, "srsrc": 16, "ssamp": 24}}
    for kind in list(PROBES):
        base = kind if kind in even else re.sub(r"_(S|GLC|LDS|SADDR|SOE)$", "", kind)
        if base in even and not kind.endswith("_S"):
            build, fields = PROBES[kind]
            PROBES[kind] = (build, dict(fields, **{k: v for k, v in even[base].items()
                                                   if k in fields}))


# Which probe kinds an opcode slot of sim_opcodes.def gets.
PROBE_KINDS = {
    "FLAT": ["FLAT", "FLAT_GLC", "FLAT_LDS"],
    "GLOBAL": ["GLOBAL", "GLOBAL_GLC", "GLOBAL_LDS", "GLOBAL_SADDR"],
    "SCRATCH": ["SCRATCH", "SCRATCH_GLC", "SCRATCH_LDS", "SCRATCH_SADDR"],
    "MUBUF": ["MUBUF", "MUBUF_GLC", "MUBUF_LDS"],
    "SMEM": ["SMEM", "SMEM_SOE"],
    "VOP2": ["VOP2", "VOP2_SDWA", "VOP2_DPP"],
    "VOP1": ["VOP1", "VOP1_SDWA", "VOP1_DPP"],
    "VOPC": ["VOPC", "VOPC_SDWA", "VOPC_DPP"],
    "VOP3": ["VOP3", "VOP3_S"],
    "VOP3P": ["VOP3P", "VOP3P_S"],
}


def probe_words(rows):
    """[(kind, num, mnemonic, words, {value: role})]: for each opcode slot and probe kind,
    one entry per subset of the optional fields, largest subsets first."""
    out = []
    for enc, n, m in rows:
        for kind in PROBE_KINDS.get(enc, [enc]):
            build, fields = PROBES[kind]
            names = sorted(fields)
            subsets = sorted(range(1 << len(names)), key=lambda s: -bin(s).count("1"))
            for s in subsets:
                f = {k: (fields[k] if s >> i & 1 else 0) for i, k in enumerate(names)}
                roles = {30: "smem_offset"} if kind == "SMEM_SOE" else {}
                for k in names:
                    if f[k] and k != "offset":
                        v = f[k] - 256 if kind.startswith("VOP3") and k.startswith("src") and f[k] > 255 else f[k]
                        roles[v] = k
                out.append((kind, n, m, build(n, f), roles))
    return out


# ---- LLVM: assembling and disassembling --------------------------------------------------


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def objdump_words(words, workdir, tools, name):
    """Disassembles a dword stream; {byte offset: (dwords, text)}; text None = invalid."""
    src = os.path.join(workdir, name + ".s")
    obj = os.path.join(workdir, name + ".o")
    with open(src, "w") as f:
        f.write(".text\n")
        for i in range(0, len(words), 8):
            f.write(".long " + ",".join("0x%08x" % w for w in words[i:i + 8]) + "\n")
    r = run([tools["mc"], "-arch=amdgcn", "-mcpu=" + MCPU, "-filetype=obj", src, "-o", obj])
    if r.returncode:
        sys.exit("llvm-mc failed on %s: %s" % (src, r.stderr[:2000]))
    r = run([tools["objdump"], "-d", "--mcpu=" + MCPU, obj])
    if r.returncode:
        sys.exit("llvm-objdump failed: %s" % r.stderr[:2000])
    out = {}
    line_re = re.compile(r"^\s+(.*?)\s*// ([0-9A-Fa-f]+): ((?:[0-9A-F]{8} ?)+)(?:<.*>)?$")
    for line in r.stdout.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        text = m.group(1).strip()
        off = int(m.group(2), 16)
        dw = [int(x, 16) for x in m.group(3).split()]
        out[off] = (dw, None if text.startswith(".long") else text)
    return out


# ---- Parsing LLVM's text -----------------------------------------------------------------

MOD_WORDS = {"gds", "glc", "slc", "lds", "tfe", "offen", "idxen", "addr64", "unorm", "da",
             "r128", "a16", "lwe", "d16", "clamp", "row_mirror", "row_half_mirror"}


def split_tokens(s):
    if not any(c in s for c in "[]()"):
        return [t for t in s.split(" ") if t]  # what the loop below gives without brackets
    toks, depth, cur = [], 0, ""
    for ch in s:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == " " and depth == 0:
            if cur:
                toks.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        toks.append(cur)
    return toks


def is_modifier(t):
    return t in MOD_WORDS or re.match(r"^[a-z_0-9]+:", t) is not None


# split_line() of every line seen: the comparison splits each line several times.
_SPLIT = {}


def split_line(text):
    """LLVM line -> (mnemonic, (operand, ...), (modifier, ...)), shared between callers."""
    r = _SPLIT.get(text)
    if r is None:
        r = _SPLIT[text] = split_line_uncached(text)
    return r


def split_line_uncached(text):
    text = re.sub(r"/\*.*?\*/", "", text).strip()
    parts = text.split(None, 1)
    toks = split_tokens(parts[1]) if len(parts) > 1 else []
    ops, i = [], 0
    while i < len(toks) and toks[i].endswith(","):
        ops.append(toks[i][:-1])
        i += 1
    if i < len(toks) and (ops or not is_modifier(toks[i])):
        ops.append(toks[i])
        i += 1
    return parts[0], tuple(ops), tuple(toks[i:])


SPECIAL = {"flat_scratch": 102, "flat_scratch_lo": 102, "flat_scratch_hi": 103,
           "xnack_mask": 104, "xnack_mask_lo": 104, "xnack_mask_hi": 105, "vcc": 106,
           "vcc_lo": 106, "vcc_hi": 107, "m0": 124, "exec": 126, "exec_lo": 126,
           "exec_hi": 127, "src_shared_base": 235, "src_shared_limit": 236,
           "src_private_base": 237, "src_private_limit": 238,
           "src_pops_exiting_wave_id": 239, "src_vccz": 251, "vccz": 251, "src_execz": 252,
           "execz": 252, "src_scc": 253, "scc": 253, "src_lds_direct": 254,
           "lds_direct": 254, "null": 125}
INLINE_F = {240: 0.5, 241: -0.5, 242: 1.0, 243: -1.0, 244: 2.0, 245: -2.0, 246: 4.0,
            247: -4.0, 248: 0.15915494309189535}


def reg_code(t):
    """Register token -> 9-bit operand code (VGPRs 256+), or None. An AGPR (gfx90a) is
    AGPR_BASE + n: agpr() tells it apart."""
    m = re.match(r"^([sva]|ttmp)(?:(\d+)|\[(\d+):\d+\])$", t)
    if m:
        n = int(m.group(2) if m.group(2) is not None else m.group(3))
        return {"s": 0, "v": 256, "ttmp": 108, "a": AGPR_BASE}[m.group(1)] + n
    return SPECIAL.get(t)


AGPR_BASE = 1024


def agpr(r):
    """AGPR number of a reg_code() value, or None."""
    return r - AGPR_BASE if r is not None and r >= AGPR_BASE else None


def parse_number(t):
    try:
        if re.match(r"^-?0x[0-9a-fA-F]+$", t):
            return int(t, 16)
        if re.match(r"^-?\d+$", t):
            return int(t)
        return float(t)
    except ValueError:
        return None


def float_bits(x):
    """The encodings a printed float may stand for: f32, f16 and the high word of f64."""
    out = set()
    for fmt, conv in (("<f", lambda b: struct.unpack("<I", b)[0]),
                      ("<e", lambda b: struct.unpack("<H", b)[0]),
                      ("<d", lambda b: struct.unpack("<Q", b)[0] >> 32)):
        try:
            out.add(conv(struct.pack(fmt, x)))
        except (OverflowError, struct.error):
            pass
    return out


def strip_src_mods(t):
    """'-|sext(v1)|' -> ('v1', neg, abs, sext)."""
    neg = absm = sext = 0
    if t.startswith("-") and parse_number(t) is None:
        neg, t = 1, t[1:]
    if t.startswith("|") and t.endswith("|"):
        absm, t = 1, t[1:-1]
    if t.startswith("neg(") and t.endswith(")"):
        neg, t = 1, t[4:-1]  # an integer inline constant with the neg bit
    if t.startswith("abs(") and t.endswith(")"):
        absm, t = 1, t[4:-1]
    if t.startswith("sext(") and t.endswith(")"):
        sext, t = 1, t[5:-1]
    return t, neg, absm, sext


def src_alternatives(t):
    """Source token -> [(operand code or ('num', value), neg, abs, sext)]: a negative number
    is both an inline constant and a negated positive one."""
    base, neg, absm, sext = strip_src_mods(t)
    out = [(base, neg, absm, sext)]
    if neg == 0 and base.startswith("-") and parse_number(base) is not None:
        out.append((base[1:], 1, absm, sext))
    return out


def src_matches(tok, code, literal):
    """Does the printed source tok (without modifiers) name operand code/literal?"""
    r = reg_code(tok)
    if agpr(r) is not None:
        return code == 256 + agpr(r)  # a VALU source field names an AGPR as a VGPR code
    if r is not None:
        return r == code
    v = parse_number(tok)
    if v is None:
        return False
    if code == 255:
        if isinstance(v, int):
            # A 16-bit operand reads the literal's low half, and LLVM prints only that.
            return (v & 0xFFFFFFFF) == literal or (v & 0xFFFF) == (literal & 0xFFFF)
        return literal in float_bits(v)
    if 128 <= code <= 192:
        return isinstance(v, int) and v == code - 128
    if 193 <= code <= 208:
        return isinstance(v, int) and v == 192 - code
    if code in INLINE_F:
        f = INLINE_F[code]
        if isinstance(v, float):
            return abs(v - f) < 1e-6
        # An integer operand prints a float inline constant as its bit pattern.
        return v in float_bits(f) or v == (struct.unpack("<Q", struct.pack("<d", f))[0])
    return False


def learn_roles(text, by_value):
    """Probe line + {field value: field} -> the field each printed operand comes from:
    a field name, 'lit' (a literal LLVM read, as v_madmk's K), or ('fixed', token)."""
    _, ops, _ = split_line(text)
    roles = []
    for tok in ops:
        base = strip_src_mods(tok)[0]
        r = reg_code(base)
        v = parse_number(base)
        if base == "off":
            roles.append("saddr" if tok is ops[-1] else "addr")
        elif agpr(r) is not None:
            roles.append(by_value.get(agpr(r), ("fixed", base)))
        elif r is not None:
            roles.append(by_value.get(r - 256 if r >= 256 else r, ("fixed", base)))
        elif v is not None:
            roles.append(by_value.get(v, "lit"))
        else:
            roles.append(("fixed", base))
    return roles


SEL = {"BYTE_0": 0, "BYTE_1": 1, "BYTE_2": 2, "BYTE_3": 3, "WORD_0": 4, "WORD_1": 5,
       "DWORD": 6}
UNUSED = {"UNUSED_PAD": 0, "UNUSED_SEXT": 1, "UNUSED_PRESERVE": 2}
DFMT = {"INVALID": 0, "8": 1, "16": 2, "8_8": 3, "32": 4, "16_16": 5, "10_11_11": 6,
        "11_11_10": 7, "10_10_10_2": 8, "2_10_10_10": 9, "8_8_8_8": 10, "32_32": 11,
        "16_16_16_16": 12, "32_32_32": 13, "32_32_32_32": 14, "RESERVED_15": 15}
NFMT = {"UNORM": 0, "SNORM": 1, "USCALED": 2, "SSCALED": 3, "UINT": 4, "SINT": 5,
        "RESERVED_6": 6, "FLOAT": 7}
DPP_ONE = {"wave_shl:1": 0x130, "wave_rol:1": 0x134, "wave_shr:1": 0x138,
           "wave_ror:1": 0x13C, "row_mirror": 0x140, "row_half_mirror": 0x141,
           "row_bcast:15": 0x142, "row_bcast:31": 0x143}
IF = {"glc": 1 << 5, "slc": 1 << 6, "offen": 1 << 7, "idxen": 1 << 8, "gds": 1 << 11,
      "lds": 1 << 12, "scc": 1 << 14, "dlc": 1 << 15}
MIMG_BITS = {"unorm": 1, "da": 2, "a16": 4, "r128": 4, "tfe": 8, "lwe": 16, "d16": 32}
# gfx10 MIMG DIM (SQ_RSRC_IMG_*); the array ones are gfx9's DA.
MIMG_DIM = {"1D": 0, "2D": 1, "3D": 2, "CUBE": 3, "1D_ARRAY": 4, "2D_ARRAY": 5, "2D_MSAA": 6,
            "2D_MSAA_ARRAY": 7}
VALU_ENCS = {"VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "VOP1_SDWA", "VOP2_SDWA",
             "VOPC_SDWA", "VOP1_DPP", "VOP2_DPP", "VOPC_DPP"}
SUFFIX_ENC = {"_e32": ("VOP1", "VOP2", "VOPC"), "_e64": ("VOP3",),
              "_sdwa": ("VOP1_SDWA", "VOP2_SDWA", "VOPC_SDWA"),
              "_dpp": ("VOP1_DPP", "VOP2_DPP", "VOPC_DPP")}


def bits_list(s):
    return [int(x) for x in s.strip("[]").split(",")]


def expected_fields(text, roles, sim):
    """(mnemonic, {sim key: expected value}, [problems]) from LLVM's line. Keys ending in
    '@mask' carry (mask, value): only those bits are compared."""
    mnem, ops, mods = split_line(text)
    exp, bad = {}, []
    if not ops and roles == ["imm"]:
        ops = ["0"]
    if len(ops) != len(roles):
        bad.append("operand count %d, probe had %d" % (len(ops), len(roles)))
        return mnem, exp, bad
    enc = sim["enc"]
    smem = None
    neg = absm = sext = 0
    present = 0
    for role, tok in zip(roles, ops):
        if isinstance(role, tuple):
            if role[1] in SPECIAL and tok != role[1]:
                bad.append("fixed operand %s printed as %s" % (role[1], tok))
            continue
        if role.startswith("src"):
            i = int(role[3])
            present |= 1 << i
            code = sim["src%d" % i]
            for base, n, a, s in src_alternatives(tok):
                if src_matches(base, code, sim["lit"]):
                    neg |= n << i
                    absm |= a << i
                    sext |= s << i
                    break
            else:
                bad.append("%s: LLVM %s, sim code %d literal 0x%x" % (role, tok, code, sim["lit"]))
            continue
        if role == "lit":
            v = parse_number(tok)
            if v is None or not src_matches(tok, 255, sim["lit"]):
                bad.append("literal: LLVM %s, sim 0x%x" % (tok, sim["lit"]))
            continue
        if role == "imm":
            v = parse_number(tok)
            if isinstance(v, int):
                exp["imm@mask"] = (0xFFFF, v & 0xFFFF)
            continue
        if role == "smem_offset":
            # Compared as what the address adds: an SGPR (or none) and an immediate.
            r = reg_code(tok)
            smem = [r, 0] if r is not None else [None, (parse_number(tok) or 0) & 0x1FFFFF]
            continue
        if role == "soffset":
            if not src_matches(tok, sim["soffset"], sim["lit"]):  # gfx10: may be a literal
                bad.append("soffset: LLVM %s, sim code %d" % (tok, sim["soffset"]))
            continue
        if tok == "off":
            if role == "saddr":
                exp["saddr"] = 0x7F
            continue
        if role == "vaddr" and tok.startswith("["):
            # gfx10 NSA: [vA, vB, ...], the first in VADDR, the others one byte each after
            regs = [reg_code(x.strip()) for x in tok.strip("[]").split(",")]
            if any(r is None or r < 256 for r in regs):
                bad.append("vaddr: LLVM %s is not a VGPR list" % tok)
                continue
            exp["vaddr"] = regs[0] - 256
            rest = [r - 256 for r in regs[1:]]
            exp["nsa_addr@mask"] = ((1 << 8 * len(rest)) - 1,
                                    sum(r << 8 * i for i, r in enumerate(rest)))
            continue
        r = reg_code(tok)
        if r is None and isinstance(parse_number(tok), int):
            r = parse_number(tok)  # s_atc_probe's sdata field is a number
        if r is None:
            bad.append("%s: LLVM %s is not a register" % (role, tok))
            continue
        val = r - 256 if r >= 256 and role not in ("soffset",) else r
        if agpr(r) is not None:
            # Memory data registers: sim adds 256 for the ACC bit; a VALU field holds n.
            val = agpr(r) + 256 if enc in ACC_ENCS else agpr(r)
            if role == "vdst" and mnem.startswith("v_mfma_"):
                exp["acc_cd"] = 1
        if role == "vdst" and sim.get("vdst") == 0xFFFF:
            role = "sdst"  # VOPC promoted to VOP3: the vdst field is the SGPR-pair result
        exp[role] = val
    flags = 0
    mimg = 0
    swizzle = False
    for t in mods:
        k, _, v = t.partition(":")
        if k.startswith("offset") and parse_number(v) is None:
            swizzle = True  # ds_swizzle_b32's offset:swizzle(...): the raw field is not printed
            continue
        if t in IF:
            flags |= IF[t]
        if enc == "MIMG" and t in MIMG_BITS and not (GFX10 and t == "r128"):
            mimg |= MIMG_BITS[t]
        if enc == "MIMG" and k == "dim":
            exp["dim"] = MIMG_DIM[v.replace("SQ_RSRC_IMG_", "")]
            if exp["dim"] in (4, 5, 7):
                mimg |= MIMG_BITS["da"]
        if k == "clamp":
            exp["clamp"] = 1
        elif k in ("mul", "div"):
            exp["omod"] = {"mul:2": 1, "mul:4": 2, "div:2": 3}[t]
        elif k == "op_sel":
            b = bits_list(v)
            if enc == "VOP3":
                val = sum(x << i for i, x in enumerate(b[:-1])) | b[-1] << 3
            else:
                val = sum(x << i for i, x in enumerate(b))
            exp["op_sel"] = val
        elif k == "op_sel_hi":
            b = bits_list(v)
            exp["op_sel_hi@mask"] = ((1 << len(b)) - 1, sum(x << i for i, x in enumerate(b)))
        elif k == "neg_lo":
            neg |= sum(x << i for i, x in enumerate(bits_list(v)))
        elif k == "neg_hi":
            exp["neg_hi"] = sum(x << i for i, x in enumerate(bits_list(v)))
        elif k == "dst_sel":
            exp["dst_sel"] = SEL[v]
        elif k == "dst_unused":
            exp["dst_unused"] = UNUSED[v]
        elif k == "src0_sel":
            exp["sel0"] = SEL[v]
        elif k == "src1_sel":
            exp["sel1"] = SEL[v]
        elif k == "quad_perm":
            b = bits_list(v)
            exp["dpp_ctrl"] = b[0] | b[1] << 2 | b[2] << 4 | b[3] << 6
        elif k in ("row_shl", "row_shr", "row_ror"):
            exp["dpp_ctrl"] = {"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120}[k] + int(v, 0)
        elif t in DPP_ONE:
            exp["dpp_ctrl"] = DPP_ONE[t]
        elif k in ("row_share", "row_xmask"):
            exp["dpp_ctrl"] = {"row_share": 0x150, "row_xmask": 0x160}[k] + int(v, 0)
        elif k == "fi":
            exp["fi"] = int(v, 0)
        elif k == "dpp8":
            exp["sel8"] = sum(x << 3 * i for i, x in enumerate(bits_list(v)))
        elif k == "row_mask":
            exp["row_mask"] = int(v, 0)
        elif k == "bank_mask":
            exp["bank_mask"] = int(v, 0)
        elif k == "bound_ctrl":
            exp["bound_ctrl"] = 1
        elif k == "offset" and enc == "DS":
            exp["imm"] = int(v, 0) & 0xFF
            exp["offset1"] = int(v, 0) >> 8
        elif k == "offset0":
            exp["imm"] = int(v, 0)
        elif k == "offset1":
            exp["offset1"] = int(v, 0)
        elif k == "offset" and enc == "SMEM":
            smem = (smem or [None, 0])[:1] + [int(v, 0) & 0x1FFFFF]
        elif k == "offset":
            exp["imm"] = int(v, 0)
        elif k == "dmask":
            exp["dmask"] = int(v, 0)
        elif k == "format" and v.startswith("["):
            for x in v.strip("[]").split(","):
                if x == "BUF_FMT_INVALID":
                    exp["data1"], exp["offset1"] = 0, 0
                elif x.startswith("BUF_FMT_"):  # gfx10: one name for both
                    d, _, nf = x[8:].rpartition("_")
                    exp["data1"], exp["offset1"] = DFMT[d], NFMT[nf]
                elif x.startswith("BUF_DATA_FORMAT_"):
                    exp["data1"] = DFMT[x[16:]]
                else:
                    exp["offset1"] = NFMT[x[15:]]
        elif k == "format" and GFX10:
            exp["data1"] = exp["offset1"] = 0  # a number: none of the named formats
        elif k == "format":
            exp["data1"] = int(v, 0) & 15
            exp["offset1"] = int(v, 0) >> 4
        elif k in ("cbsz", "abid", "blgp"):
            exp[k] = int(v, 0)
    if mnem.startswith("v_mfma_"):
        for k in ("cbsz", "abid", "blgp", "acc_cd"):
            exp.setdefault(k, 0)
        # The MAI fields sit where op_sel/neg_hi/neg/clamp do: sim clears those.
        for k in ("clamp", "neg@mask", "neg_hi@mask", "op_sel@mask"):
            exp.pop(k, None)
    elif enc in VALU_ENCS:
        exp.setdefault("clamp", 0)
        exp.setdefault("omod", 0)
        if enc == "VOP3P":
            exp["neg@mask"] = (present, neg)
            if "neg_hi" not in exp:
                exp["neg_hi@mask"] = (present, 0)
            if "op_sel" not in exp:
                exp["op_sel@mask"] = (present, 0)
        else:
            exp["neg@mask"] = (present, neg)
            exp["abs@mask"] = (present, absm)
        if enc.endswith("_SDWA"):
            exp["sext@mask"] = (present, sext)
        if enc == "VOP3":
            exp.setdefault("op_sel", 0)
        if enc.endswith("_DPP"):
            exp.setdefault("bound_ctrl", 0)
    if enc in ("DS", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "SMEM"):
        mask = sum(IF.values()) if enc != "SMEM" else IF["glc"] | IF["dlc"]
        exp["flags@mask"] = (mask, flags) if "flags@mask" not in exp else (
            exp["flags@mask"][0] | mask, exp["flags@mask"][1] | flags)
        # A MUBUF cache operation without operands (gfx90a's buffer_wbl2 and buffer_invl2,
        # which LLVM decodes whatever the other fields hold) has no offset to compare.
        if enc == "DS" or (enc in ("FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF") and ops):
            exp.setdefault("imm", 0)
        if enc == "DS":
            exp.setdefault("offset1", 0)
        if swizzle:
            del exp["imm"], exp["offset1"]
    if smem is not None:
        exp["smem"] = tuple(smem)
    if enc == "MTBUF":  # LLVM omits the default format (BUF_DATA_FORMAT_8, UNORM)
        exp.setdefault("data1", 1)
        exp.setdefault("offset1", 0)
    if enc == "MIMG":
        exp["flags@mask"] = (IF["glc"] | IF["slc"] | IF["scc"] | IF["dlc"], flags)
        exp["mimg"] = mimg
        exp.setdefault("dmask", 0)
    return mnem, exp, bad


def compare(text, ndw, sim, roles, mod_known):
    """Problems of sim's decoding `sim` (dumper fields) against LLVM's line `text`."""
    mnem = split_line(text)[0]
    m = re.match(r"^(.*?)(_e32|_e64|_sdwa|_dpp)?$", mnem)
    base, suffix = m.group(1), m.group(2)
    if sim["op"] != base:
        return ["mnemonic: LLVM %s, sim %s (%s)" % (mnem, sim["op"], sim["enc"])]
    bad = []
    if suffix and sim["enc"] not in SUFFIX_ENC[suffix]:
        bad.append("encoding: LLVM %s, sim %s" % (suffix, sim["enc"]))
    if ndw * 4 != sim["size"]:
        bad.append("length: LLVM %d bytes, sim %d" % (ndw * 4, sim["size"]))
    if roles is None:
        return bad
    _, exp, problems = expected_fields(text, roles, sim)
    bad += problems
    if "smem" in exp:
        f = sim["flags"]
        sg = sim["soffset"] if f & 1 << 10 else None if f & 1 << 9 else sim["imm"]
        got = (sg, sim["imm"] & 0x1FFFFF if f & 1 << 9 else 0)
        want = exp.pop("smem")
        if GFX10 and want[0] == 125:  # gfx10's null SGPR offset reads 0: the same as none
            want = (None, want[1])
        if got != want:
            bad.append("smem offset (sgpr, imm): LLVM %s, sim %s" % (want, got))
    srcpos = [i for i, r in enumerate(roles) if isinstance(r, str) and r.startswith("src")]
    srcpos = {int(roles[i][3]): i for i in srcpos}
    known = mod_known.get(mnem, ())
    for k in ("neg@mask", "abs@mask", "sext@mask"):
        # Per source: an integer source has no neg/abs even where the others have.
        if k in exp and sim["enc"] != "VOP3P":
            mask, want = exp[k]
            m = sum(1 << i for i, p in srcpos.items() if (k[:-5], p) in known)
            exp[k] = (mask & m, want & m)
    for k, v in exp.items():
        key = k.split("@")[0]
        # A VALU modifier LLVM never printed for this mnemonic is a field the instruction
        # does not have (an integer VOP3 has no neg): the decoder may read the bits.
        if key in ("neg", "abs", "clamp", "omod", "op_sel", "op_sel_hi", "neg_hi", "sext",
                   "bound_ctrl") and key not in known:
            continue
        if key == "flags" and sim["enc"] != "MIMG":
            # Likewise glc/slc/lds/gds/offen/idxen: only those the instruction has.
            m = sum(b for n, b in IF.items() if n in known)
            v = (v[0] & m, v[1] & m)
        if key not in sim:
            bad.append("%s: sim has no such field" % key)
            continue
        got = sim[key]
        if "@mask" in k:
            mask, want = v
            if got & mask != want:
                bad.append("%s: LLVM %d, sim %d (mask 0x%x)" % (key, want, got & mask, mask))
        elif got != v:
            bad.append("%s: LLVM %d, sim %d" % (key, v, got))
    return bad


_MODIFIER_KEYS = {}


def modifier_keys(text):
    """The VALU modifiers a line shows, to learn which mnemonics have them (memoised)."""
    r = _MODIFIER_KEYS.get(text)
    if r is None:
        r = _MODIFIER_KEYS[text] = frozenset(modifier_keys_uncached(text))
    return r


def modifier_keys_uncached(text):
    _, ops, mods = split_line(text)
    keys = set()
    for i, tok in enumerate(ops):
        _, n, a, s = strip_src_mods(tok)
        for k, on in (("neg", n), ("abs", a), ("sext", s)):
            if on:
                keys.add(k)
                keys.add((k, i))
    for t in mods:
        k = t.partition(":")[0]
        keys.add({"mul": "omod", "div": "omod", "neg_lo": "neg"}.get(k, k))
    return keys


# ---- The corpus generator ----------------------------------------------------------------

SRC_KINDS = ["s7", "s101", "v0", "v255", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "m0",
             "ttmp11", "flat_scratch_hi", "xnack_mask_lo", "0", "64", "-1", "-16", "0.5",
             "-4.0", "0.15915494", "0x12345678", "0xfffff000", "1.5", "src_scc",
             "src_execz", "src_vccz", "src_shared_base", "src_private_limit",
             "src_pops_exiting_wave_id", "src_lds_direct"]
SRC64_KINDS = ["s[6:7]", "s[100:101]", "v[0:1]", "v[254:255]", "vcc", "exec", "ttmp[10:11]",
               "flat_scratch", "xnack_mask", "0", "64", "-16", "0.5", "-4.0", "0.15915494",
               "0x12345678", "1.5", "src_shared_base", "src_scc"]
SDST_KINDS = ["s0", "s101", "v0", "v255", "vcc_lo", "vcc_hi", "exec_lo", "exec_hi", "m0",
              "ttmp15", "flat_scratch_lo", "xnack_mask_hi"]
SDST64_KINDS = ["s[0:1]", "s[100:101]", "v[0:1]", "v[254:255]", "vcc", "exec",
                "ttmp[14:15]", "flat_scratch", "xnack_mask"]
SOFFSET_KINDS = ["s7", "s101", "m0", "0", "64", "-1", "-16", "0.5", "vcc_lo", "exec_hi",
                 "ttmp5", "0x12345678"]


def reg_width(tok):
    m = re.search(r"\[(\d+):(\d+)\]", tok)
    if m:
        return int(m.group(2)) - int(m.group(1)) + 1
    if tok in ("vcc", "exec", "flat_scratch", "xnack_mask"):
        return 2
    return 1


def reg_tuples(prefix, width, numbers):
    out = []
    for n in numbers:
        n -= n % min(width, 4)
        out.append("%s%d" % (prefix, n) if width == 1 else "%s[%d:%d]" % (prefix, n, n + width - 1))
    return out


def vector_kinds(tok):
    w = reg_width(tok)
    return reg_tuples("v", w, [0, 255 - w + 1, 128])


def scalar_kinds(tok):
    w = reg_width(tok)
    return reg_tuples("s", w, [0, 100 - w + 1 if w < 4 else 96, 40]) + reg_tuples("ttmp", w, [0, 16 - w])


def decorate(tok, how):
    return {"neg": "-" + tok, "abs": "|" + tok + "|", "negabs": "-|" + tok + "|",
            "sext": "sext(" + tok + ")"}[how]


def gen_variants(kind, text, roles):
    """Assembly lines from one probe line: one operand kind or modifier set at a time."""
    mnem, ops, mods = split_line(text)
    ops, mods = list(ops), list(mods)
    out = []

    def emit(new_ops, new_mods):
        out.append(" ".join([mnem + (" " + ", ".join(new_ops) if new_ops else "")] + new_mods))

    srcs = [i for i, r in enumerate(roles) if isinstance(r, str) and r.startswith("src")]
    for i, role in enumerate(roles):
        if isinstance(role, tuple):
            continue
        tok = strip_src_mods(ops[i])[0]
        w = reg_width(tok)
        if role.startswith("src"):
            kinds = SRC64_KINDS if w == 2 else SRC_KINDS if w == 1 else scalar_kinds(tok) + vector_kinds(tok)
        elif role in ("vdst", "sdst"):
            kinds = (SDST64_KINDS if w == 2 else SDST_KINDS) if w <= 2 else []
            kinds = kinds + vector_kinds(tok) + scalar_kinds(tok)
        elif role in ("addr", "data0", "data1", "vaddr", "vdata"):
            kinds = vector_kinds(tok) + (["off"] if role == "addr" else [])
        elif role in ("srsrc", "ssamp", "sbase", "saddr"):
            kinds = scalar_kinds(tok) + (["off"] if role == "saddr" else [])
        elif role == "soffset":
            kinds = SOFFSET_KINDS
        elif role == "smem_offset":
            kinds = ["0", "0xfffff", "0x1fffff", "s7", "m0", "ttmp3", "-1"]
        elif role == "lit":
            kinds = ["0x12345678", "1.0", "0", "-2.0"]
        elif role == "imm":
            kinds = ["0", "1", "0x7fff", "0x8000", "0xffff", "-1"]
        else:
            kinds = []
        for k in kinds:
            emit(ops[:i] + [k] + ops[i + 1:], mods)
    for i in srcs:
        for how in ("neg", "abs", "negabs") + (("sext",) if kind.endswith("SDWA") else ()):
            emit(ops[:i] + [decorate(ops[i], how)] + ops[i + 1:], mods)
    n = len(srcs)
    mod_sets = []
    if kind.startswith("VOP3") and kind[4:5] != "P":
        mod_sets = [["clamp"], ["mul:2"], ["mul:4"], ["div:2"], ["clamp", "div:2"]]
        for b in range(n + 1):
            mod_sets.append(["op_sel:[%s]" % ",".join("1" if j == b else "0" for j in range(n + 1))])
    elif kind.startswith("VOP3P"):
        mod_sets = [["clamp"]]
        for b in range(n):
            one = ",".join("1" if j == b else "0" for j in range(n))
            mod_sets += [["op_sel:[%s]" % one], ["neg_lo:[%s]" % one], ["neg_hi:[%s]" % one]]
        mod_sets.append(["op_sel_hi:[%s]" % ",".join("0" * n)])
    elif kind.endswith("SDWA"):
        for sel in SEL:
            mod_sets += [["dst_sel:" + sel], ["src0_sel:" + sel], ["src1_sel:" + sel]]
        mod_sets += [["dst_unused:" + u] for u in UNUSED]
        mod_sets += [["clamp"], ["mul:2"], ["div:2"]]
        mod_sets = [m + [x for x in mods if x.partition(":")[0] not in {y.partition(":")[0] for y in m}]
                    for m in mod_sets]
    elif kind.endswith("DPP"):
        ctrls = ["quad_perm:[3,2,1,0]", "quad_perm:[1,1,0,2]", "row_shl:1", "row_shl:15",
                 "row_shr:3", "row_ror:9", "row_ror:15"] + list(DPP_ONE)
        mod_sets = [[c, "row_mask:0xf", "bank_mask:0xf"] for c in ctrls]
        mod_sets += [["quad_perm:[0,1,2,3]", "row_mask:0x3", "bank_mask:0xc"],
                     ["quad_perm:[0,1,2,3]", "row_mask:0x0", "bank_mask:0x5", "bound_ctrl:0"],
                     ["row_shr:1", "row_mask:0xa", "bank_mask:0x0", "bound_ctrl:1"]]
    elif kind == "DS":
        mod_sets = [[], ["offset:65535"], ["offset:1"], ["offset0:255", "offset1:1"],
                    ["offset0:1", "offset1:255"], ["gds"], ["offset:4", "gds"]]
    elif kind in ("FLAT", "GLOBAL", "SCRATCH"):
        mod_sets = [[], ["offset:4095"], ["offset:-4096"], ["offset:-1"], ["offset:1"], ["glc"],
                    ["slc"], ["glc", "slc"], ["lds"], ["offset:2048", "glc"]]
    elif kind in ("MUBUF", "MTBUF"):
        fmt = [x for x in mods if x.startswith("format:")]
        base = [["offen"], ["idxen"], ["offen", "offset:4095"], ["offset:1"], [],
                ["offen", "glc"], ["offen", "slc"], ["offen", "lds"], ["offen", "tfe"],
                ["idxen", "glc", "slc"]]
        if kind == "MTBUF":
            fmts = ["format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_UINT]",
                    "format:[BUF_DATA_FORMAT_32_32_32_32,BUF_NUM_FORMAT_SINT]",
                    "format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_SNORM]",
                    "format:[BUF_DATA_FORMAT_INVALID,BUF_NUM_FORMAT_UNORM]"]
            mod_sets = [fmt + b for b in base] + [[f, "offen"] for f in fmts]
        else:
            mod_sets = base
        # off / one VGPR / a pair, as offen/idxen require
        addr = [i for i, r in enumerate(roles) if r == "addr"]
        if addr:
            i = addr[0]
            for m in list(mod_sets):
                a = "v[5:6]" if "idxen" in m and "offen" in m else "v5" if ("idxen" in m or "offen" in m) else "off"
                emit(ops[:i] + [a] + ops[i + 1:], m)
            emit(ops[:i] + ["v[5:6]"] + ops[i + 1:], fmt + ["idxen", "offen"])
            mod_sets = []
    elif kind == "MIMG":
        vd = [i for i, r in enumerate(roles) if r == "vdata"]
        for dm in (1, 2, 3, 5, 7, 8, 15):
            for extra in ([], ["unorm"], ["glc"], ["slc"], ["r128"], ["a16"], ["tfe"], ["lwe"],
                          ["da"], ["d16"], ["glc", "slc", "unorm", "da"]):
                nch = bin(dm).count("1")
                if "d16" in extra:
                    nch = (nch + 1) // 2
                if "tfe" in extra or "lwe" in extra:
                    nch += 1
                o = list(ops)
                if vd:
                    o[vd[0]] = reg_tuples("v", nch, [8])[0]
                emit(o, ["dmask:0x%x" % dm] + extra)
    elif kind == "SMEM":
        mod_sets = [["glc"]]
    for m in mod_sets:
        emit(ops, m)
    if MCPU == "gfx90a":
        out += gfx90a_variants(kind, mnem, ops, mods, roles)
    if GFX10:
        out += gfx10_variants(kind, mnem, ops, mods, roles)
    return out


def gfx10_variants(kind, mnem, ops, mods, roles):
    """gfx10's fields: DLC, the null SGPR, VOP3 literals, DPP8, row_share/row_xmask and FI,
    MIMG DIM and NSA addresses."""
    out = []

    def emit(new_ops, new_mods):
        out.append(" ".join([mnem + (" " + ", ".join(new_ops) if new_ops else "")] + new_mods))

    srcs = [i for i, r in enumerate(roles) if isinstance(r, str) and r.startswith("src")]
    for i in srcs:
        emit(ops[:i] + ["null"] + ops[i + 1:], mods)
    if kind.startswith("VOP3") and len(srcs) > 1:
        # one literal read by two sources
        o = list(ops)
        o[srcs[0]] = o[srcs[1]] = "0x12345678"
        emit(o, mods)
    if kind in ("SMEM", "FLAT", "GLOBAL", "SCRATCH", "MUBUF", "MTBUF", "MIMG"):
        emit(ops, mods + ["dlc"])
        emit(ops, mods + ["glc", "slc", "dlc"])
    if kind in ("FLAT", "GLOBAL", "SCRATCH"):
        for off in ("offset:2047", "offset:-2048", "offset:-1", "offset:4095"):
            emit(ops, mods + [off])
    if kind in ("MUBUF", "MTBUF"):
        addr = [i for i, r in enumerate(roles) if r == "addr"]
        if addr:
            i = addr[0]
            emit(ops[:i] + ["v5"] + ops[i + 1:], mods + ["offen", "slc"])
    if kind == "MTBUF":
        addr = [i for i, r in enumerate(roles) if r == "addr"]
        a = ops[:addr[0]] + ["v5"] + ops[addr[0] + 1:] if addr else ops
        for f in ("BUF_FMT_32_FLOAT", "BUF_FMT_8_8_8_8_UNORM", "BUF_FMT_16_16_SINT",
                  "BUF_FMT_INVALID", "BUF_FMT_2_10_10_10_SSCALED"):
            emit(a, ["format:[%s]" % f, "offen"])
        emit(a, ["format:100", "offen"])
    if kind.endswith("DPP"):
        for m in (["dpp8:[7,6,5,4,3,2,1,0]"], ["dpp8:[0,1,2,3,4,5,6,7]", "fi:1"],
                  ["dpp8:[1,1,1,1,2,2,2,2]"], ["row_share:3", "row_mask:0xf", "bank_mask:0xf"],
                  ["row_share:15", "row_mask:0x5", "bank_mask:0xa", "fi:1"],
                  ["row_xmask:1", "row_mask:0xf", "bank_mask:0xf"],
                  ["row_xmask:15", "row_mask:0xf", "bank_mask:0xf", "bound_ctrl:1"],
                  ["quad_perm:[1,0,3,2]", "row_mask:0xf", "bank_mask:0xf", "fi:1"]):
            emit(ops, [x for x in mods if not re.match(r"(quad_perm|row_|bank_|bound_|wave_)", x)] + m)
    if kind == "MIMG":
        va = [i for i, r in enumerate(roles) if r == "vaddr"]
        dims = [x for x in mods if x.startswith("dim:")]
        rest = [x for x in mods if not x.startswith("dim:")]
        for d in MIMG_DIM:
            emit(ops, rest + ["dim:SQ_RSRC_IMG_" + d])
        if va:
            # NSA: as many single VGPRs as the address tuple has, not contiguous
            w = reg_width(ops[va[0]])
            for regs in ([5 + 3 * j for j in range(w)], [200 - 7 * j for j in range(w)]):
                if w > 1:
                    lst = "[" + ", ".join("v%d" % r for r in regs) + "]"
                    emit(ops[:va[0]] + [lst] + ops[va[0] + 1:], mods)
                    emit(ops[:va[0]] + [lst] + ops[va[0] + 1:], rest + ["dim:SQ_RSRC_IMG_2D_ARRAY"])
    return out


def gfx90a_variants(kind, mnem, ops, mods, roles):
    """gfx90a's fields: the data registers as AGPRs (ACC), the SCC cache bit, the MFMA
    broadcast controls and AGPR/VGPR accumulators."""
    out = []

    def emit(new_ops, new_mods):
        out.append(" ".join([mnem + (" " + ", ".join(new_ops) if new_ops else "")] + new_mods))

    def to_agpr(tok):
        return re.sub(r"^v(\d+|\[)", r"a\1", tok)

    if kind in ACC_ENCS:
        acc = [to_agpr(t) if r in ("vdst", "data0", "data1", "vdata") else t
               for t, r in zip(ops, roles)]
        if acc != ops:
            emit(acc, mods)
        if kind != "DS":
            emit(ops, mods + ["scc"])
            if acc != ops:
                emit(acc, mods + ["scc", "glc"])
    if mnem.startswith("v_mfma_"):
        acc = [to_agpr(t) if r in ("vdst", "src2") else t for t, r in zip(ops, roles)]
        for o in (ops, acc):
            for m in ([], ["cbsz:1"], ["cbsz:4", "abid:3"], ["abid:15"], ["blgp:7"],
                      ["cbsz:2", "abid:1", "blgp:5"]):
                emit(o, m)
    return out


def assemble(lines, workdir, tools):
    """llvm-mc -show-encoding over the lines: ([(text, [dwords])], rejected count)."""
    src = os.path.join(workdir, "corpus.s")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    # The rejected lines' diagnostics are not read (the count is what is left of the lines):
    # to /dev/null, not through a pipe into this process.
    r = subprocess.run([tools["mc"], "-arch=amdgcn", "-mcpu=" + MCPU, "-show-encoding", src],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = []
    for line in r.stdout.splitlines():
        m = re.search(r"; encoding: \[([^\]]*)\]", line)
        if m:
            b = bytes(int(x, 16) for x in m.group(1).split(","))
            out.append((line.split(";")[0].strip(), list(struct.unpack("<%dI" % (len(b) // 4), b))))
    return out, len(lines) - len(out)


def random_stream(n, seed):
    """n random dwords. llvm-objdump-19 crashes (a segfault in the AMDGPU disassembler) on an
    SDWA dword with a select field of 7 (reserved), so wherever a dword could announce SDWA
    (a VOP1/VOP2/VOPC word with src0 = 0xF9) the next one's 7s become 6 (DWORD)."""
    rng = random.Random(seed)
    words = [rng.getrandbits(32) for _ in range(n)]
    for i in range(n - 1):
        if words[i] >> 31 == 0 and words[i] & 0x1FF == 0xF9:
            for sh in (8, 16, 24):
                if (words[i + 1] >> sh) & 7 == 7:
                    words[i + 1] &= ~(1 << sh)
    return words


# ---- Running sim's decoder and comparing -------------------------------------------------


def sim_decode(dumper, stream, offsets):
    """{offset: {field: value}} from the dumper, decoding the stream at each offset."""
    hexw = ["%08x" % w for w in stream + [0] * 4]
    lines = ["%x %s" % (o, " ".join(hexw[o // 4:o // 4 + 5])) for o in offsets]
    r = subprocess.run([dumper, MCPU], input="\n".join(lines) + "\n", capture_output=True, text=True)
    if r.returncode:
        sys.exit("%s failed: %s" % (dumper, r.stderr[:2000]))
    out = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        d = {}
        for kv in parts[1:]:
            k, v = kv.split("=", 1)
            d[k] = v if k in ("op", "enc") else int(v, 0)
        out[int(parts[0], 16)] = d
    return out


# Encodings LLVM decodes and sim refuses by design: graphics-only, sim_isa_graphics_only.def.
GRAPHICS_ONLY = re.compile(r"^(v_interp_|exp )")


class Report:
    def __init__(self):
        self.fail = {}
        self.info = {}

    def add(self, cls, msg):
        self.fail.setdefault(cls, []).append(msg)

    def note(self, cls, msg):
        self.info.setdefault(cls, []).append(msg)


def hex_words(stream, off):
    """The words at byte offset off, for a message (made only when one is printed)."""
    return " ".join("%08x" % w for w in stream[off // 4:off // 4 + 3])


def check_stream(name, stream, starts, llvm, sim, roles, mod_known, rep):
    """Compares sim with LLVM at each start offset (None: every offset LLVM printed)."""
    counts = {"valid": 0, "invalid": 0, "graphics": 0}
    for off in (starts if starts is not None else sorted(llvm)):
        if off not in llvm:
            rep.add("%s: LLVM did not decode its own encoding" % name, "offset 0x%x" % off)
            continue
        dw, text = llvm[off]
        s = sim[off]
        if text is None:
            counts["invalid"] += 1
            if s["op"] != "<invalid>":
                # Not a failure: see "What is not compared" in the docstring.
                rep.note("%s: LLVM refuses, sim decodes %s" % (name, s["enc"]),
                         "[%s] sim %s" % (hex_words(stream, off), s["op"]))
            continue
        if "/*Invalid" in text or "/* Invalid" in text:
            # LLVM decodes the opcode but marks an operand it cannot encode (an SGPR
            # destination code above 127, a 64-bit register at an odd number, a reserved
            # DPP control): sim may refuse the word; if it decodes it, the mnemonic and
            # length must agree.
            counts["marked"] = counts.get("marked", 0) + 1
            if s["op"] != "<invalid>":
                for b in compare(re.sub(r"\s.*", "", text), len(dw), s, None, mod_known):
                    rep.add("%s: %s" % (name, b.split(":")[0]), "[%s] %s: %s" % (hex_words(stream, off), text, b))
            continue
        if GRAPHICS_ONLY.match(text):
            # Refused, or decoded to an opcode without a handler (which faults).
            counts["graphics"] += 1
            if s["op"] != "<invalid>" and s["op"] != re.sub(r"_e64$", "", split_line(text)[0]):
                rep.add("graphics-only instruction not refused", "[%s] %s" % (hex_words(stream, off), text))
            continue
        counts["valid"] += 1
        if s["op"] == "<invalid>":
            rep.add("%s: LLVM valid, sim refuses" % name, "[%s] %s" % (hex_words(stream, off), text))
            continue
        mnem, ops, _ = split_line(text)
        rl = roles.get((mnem, len(ops)))
        if rl is None and not ops and roles.get((mnem, 1)) == ["imm"]:
            rl = ["imm"]  # s_endpgm and friends print no zero immediate
        for b in compare(text, len(dw), s, rl, mod_known):
            rep.add("%s: %s" % (name, re.sub(r"\d+|0x[0-9a-f]+", "N", b.split(":")[0])),
                    "[%s] %s: %s" % (hex_words(stream, off), text, b))
    return counts


def phase(name, t=[None]):
    import time
    now = time.time()
    if t[0] is not None and os.environ.get("SIM_DECODER_TIMES"):
        print("  %.1f s %s" % (now - t[0], name), file=sys.stderr)
    t[0] = now


def main(argv):
    if len(argv) < 6:
        sys.exit(__doc__)
    global MCPU
    dumper, opdef, tools, workdir = argv[1], argv[2], {"mc": argv[3], "objdump": argv[4]}, argv[5]
    nrandom = int(argv[6]) if len(argv) > 6 else 0
    MCPU = argv[7] if len(argv) > 7 else "gfx906"
    global GFX10
    GFX10 = MCPU.startswith("gfx10")
    if GFX10:
        gfx10_probes()
    if MCPU == "gfx90a":
        even_probes()
    os.makedirs(workdir, exist_ok=True)
    rows = read_def(opdef)

    # 1. Probes.
    probes = probe_words(rows)
    stream, offs = [], []
    for p in probes:
        offs.append(len(stream) * 4)
        stream += p[3] + [0xBF800000] * (4 - len(p[3]))  # s_nop padding resynchronises
    phase("start")
    res = objdump_words(stream, workdir, tools, "probe")
    phase("probe objdump")
    roles, templates, done = {}, [], set()
    for p, o in zip(probes, offs):
        key = (p[0], p[1])
        r = res.get(o)
        if key in done or not r or r[1] is None:
            continue
        done.add(key)
        mnem, ops, _ = split_line(r[1])
        kind = re.sub(r"_(S|GLC|LDS|SADDR|SOE)$", "", p[0])
        if (mnem, len(ops)) not in roles:
            roles[(mnem, len(ops))] = learn_roles(r[1], p[4])
            templates.append((kind, r[1], roles[(mnem, len(ops))]))
    nslots = len({(p[0], p[1]) for p in probes})
    print("probes: %d opcode slots x encodings, %d decoded by LLVM (%d mnemonic syntaxes)"
          % (nslots, len(done), len(roles)))

    # 2. Corpus.
    lines = []
    for kind, text, rl in templates:
        lines.append(re.sub(r"/\*.*?\*/", "", text))
        lines += gen_variants(kind, text, rl)
    phase("generate")
    enc, rejected = assemble(lines, workdir, tools)
    phase("assemble")
    uniq = {}
    for text, words in enc:
        uniq.setdefault(tuple(words), text)
    print("corpus: %d lines generated, %d assembled by llvm-mc (%d distinct encodings), "
          "%d rejected" % (len(lines), len(enc), len(uniq), rejected))
    cstream, cstarts = [], []
    for words in uniq:
        cstarts.append(len(cstream) * 4)
        cstream += list(words)
    cllvm = objdump_words(cstream, workdir, tools, "corpus")
    phase("corpus objdump")
    csim = sim_decode(dumper, cstream, cstarts)
    phase("corpus sim")

    mod_known = {}
    for _, text in list(cllvm.values()) + [(None, t) for _, t, _ in templates]:
        if text:
            mod_known.setdefault(split_line(text)[0], set()).update(modifier_keys(text))

    rep = Report()
    c = check_stream("corpus", cstream, cstarts, cllvm, csim, roles, mod_known, rep)
    print("corpus: %d valid encodings compared, %d graphics-only" % (c["valid"], c["graphics"]))

    # 3. Random words.
    if nrandom:
        seed = int(os.environ.get("SIM_DECODER_SEED", "906"))
        rstream = random_stream(nrandom, seed)
        rllvm = objdump_words(rstream, workdir, tools, "random")
        phase("random objdump")
        for _, text in rllvm.values():
            if text:
                mod_known.setdefault(split_line(text)[0], set()).update(modifier_keys(text))
        rsim = sim_decode(dumper, rstream, sorted(rllvm))
        phase("random sim")
        c = check_stream("random", rstream, None, rllvm, rsim, roles, mod_known, rep)
        print("random (seed %d): %d words, %d instructions LLVM decodes (%d with an operand it "
              "marks invalid), %d words it calls invalid, %d graphics-only"
              % (seed, nrandom, c["valid"], c.get("marked", 0), c["invalid"], c["graphics"]))

    for cls in sorted(rep.info, key=lambda k: -len(rep.info[k])):
        print("note %6d  %s" % (len(rep.info[cls]), cls))
        for msg in rep.info[cls][:2]:
            print("             " + msg)
    nfail = sum(len(v) for v in rep.fail.values())
    for cls in sorted(rep.fail, key=lambda k: -len(rep.fail[k])):
        print("FAIL %6d  %s" % (len(rep.fail[cls]), cls))
        for msg in rep.fail[cls][:4]:
            print("             " + msg)
    print("%d disagreements" % nfail)
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
