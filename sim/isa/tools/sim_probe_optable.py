#!/usr/bin/env python3
"""Writes a target's opcode table: every opcode slot of every encoding, as llvm-mc-19 decodes
it for that target. Same columns as ../shared/corpus/gfx906-optable.tsv (encoding, opcode,
mnemonic, printed form, the words that decoded), so sim_gen_def.py reads either:

    sim/isa/tools/sim_probe_optable.py gfx90a > gfx90a-optable.tsv

A slot is tried with several operand templates (LLVM refuses a word whose operands the
opcode cannot take: an unaligned register tuple on gfx90a, an SGPR where only VGPRs go, a
missing literal), and the first word LLVM decodes names the slot. Each template is
decoded on its own line with a marker instruction after it: llvm-mc warns about the lines
it refuses, and the markers split its output between the lines it decodes.
"""
import os
import re
import subprocess
import sys

LLVM_MC = os.environ.get("LLVM_MC", "llvm-mc-19")

# encoding: (slots, function of the opcode number giving the first word's opcode bits,
#            mask of those bits, templates: word lists with the opcode bits clear)
# The templates are the gfx906 table's probe words, plus register-aligned (all-zero
# register) and modifier variants for what gfx90a refuses otherwise (MFMA tuples, LDS bit).
LIT = 0x3F800000
ENCODINGS = [
    ("SOP2", 96, lambda n: 0x80000000 | n << 23, [[0x80040806], [0x80040806, LIT],
                                                 [0x80040004], [0x80000000]]),
    ("SOPK", 29, lambda n: 0xB0000000 | n << 23, [[0xB0040010], [0xB0040010, LIT],
                                                 [0xB0000000], [0xB0000000, LIT]]),
    ("SOP1", 256, lambda n: 0xBE800000 | n << 8, [[0xBE840006], [0xBE840004], [0xBE800000],
                                                  [0xBE840006, LIT]]),
    ("SOPC", 128, lambda n: 0xBF000000 | n << 16, [[0xBF000604], [0xBF000004],
                                                   [0xBF000000], [0xBF000604, LIT]]),
    ("SOPP", 128, lambda n: 0xBF800000 | n << 16, [[0xBF800001], [0xBF800000]]),
    ("SMEM", 256, lambda n: 0xC0000000 | n << 18, [[0xC0020202, 0x00000010],
                                                   [0xC0020000, 0x00000010],
                                                   [0xC0020100, 0x00000010],
                                                   [0xC0000000, 0x00000000]]),
    ("VOP2", 62, lambda n: n << 25, [[0x00040901], [0x00040901, LIT], [0x00040300],
                                     [0x00040300, LIT], [0x00040500]]),
    ("VOP1", 256, lambda n: 0x7E000000 | n << 9, [[0x7E040301], [0x7E040302], [0x7E040300],
                                                  [0x7E040201], [0x7E000000],
                                                  [0x7E040301, LIT]]),
    ("VOPC", 256, lambda n: 0x7C000000 | n << 17, [[0x7C000901], [0x7C000902],
                                                   [0x7C000500], [0x7C000901, LIT]]),
    ("VOP3", 1024, lambda n: 0xD0000000 | n << 16, [[0xD0000002, 0x00020701],
                                                    [0xD0000002, 0x04120701],
                                                    [0xD0000004, 0x04120702],
                                                    [0xD0000004, 0x04120704],
                                                    [0xD0000004, 0x00020704],
                                                    [0xD0000004, 0x00000104],
                                                    [0xD0000004, 0x00000102],
                                                    [0xD0000002, 0x00000101],
                                                    [0xD0000002, 0x00000001],
                                                    [0xD0000002, 0x0000020A],
                                                    [0xD0000006, 0x00020A02],
                                                    [0xD0000006, 0x04120A02],
                                                    [0xD0000000, 0x00000100],
                                                    [0xD0000000, 0x00000000],
                                                    [0xD0006A02, 0x00020701],
                                                    [0xD0006A04, 0x04120704],
                                                    [0xD0000402, 0x00020701]]),
    ("VOP3P", 128, lambda n: 0xD3800000 | n << 16, [[0xD3804002, 0x1C120701],
                                                    [0xD3804002, 0x18020701],
                                                    [0xD3804004, 0x1C120704],
                                                    [0xD3800000, 0x04020100],
                                                    [0xD3808000, 0x04020100],
                                                    [0xD3808000, 0x04020000],
                                                    [0xD3800000, 0x00020100],
                                                    [0xD3804000, 0x18000100],
                                                    [0xD3800000, 0x00000100],
                                                    [0xD3800000, 0x00000000]]),
    ("DS", 256, lambda n: 0xD8000000 | n << 17, [[0xD8000000, 0x00000001],
                                                 [0xD8000000, 0x02000001],
                                                 [0xD8000000, 0x02000401],
                                                 [0xD8000000, 0x04020001],
                                                 [0xD8000000, 0x04020200],
                                                 [0xD8000000, 0x00000400],
                                                 [0xD8000000, 0x02000000],
                                                 [0xD8000000, 0x00000000],
                                                 [0xD8010000, 0x00000000],
                                                 [0xD8010000, 0x02000000]]),
    ("FLAT", 128, lambda n: 0xDC000000 | n << 18, [[0xDC000000, 0x00000002],
                                                   [0xDC000000, 0x02000002],
                                                   [0xDC000000, 0x04000402],
                                                   [0xDC000000, 0x02000402],
                                                   [0xDC000000, 0x00000402]]),
    ("SCRATCH", 128, lambda n: 0xDC004000 | n << 18, [[0xDC004000, 0x007F0002],
                                                      [0xDC004000, 0x007F0402],
                                                      [0xDC004000, 0x027F0002],
                                                      [0xDC004000, 0x007F0400]]),
    ("GLOBAL", 128, lambda n: 0xDC008000 | n << 18, [[0xDC008000, 0x007F0002],
                                                     [0xDC008000, 0x027F0002],
                                                     [0xDC008000, 0x047F0402],
                                                     [0xDC008000, 0x027F0402],
                                                     [0xDC008000, 0x007F0402]]),
    ("MUBUF", 128, lambda n: 0xE0000000 | n << 18, [[0xE0001000, 0x80000201],
                                                    [0xE0001000, 0x80000202],
                                                    [0xE0001000, 0x80000400],
                                                    [0xE0000000, 0x80000000],
                                                    [0xE0010000, 0x80000000],
                                                    [0xE0000000, 0x00000000]]),
    ("MTBUF", 16, lambda n: 0xE8000000 | n << 15, [[0xE8201000, 0x80000201],
                                                   [0xE8201000, 0x80000202],
                                                   [0xE8201000, 0x80000400]]),
    ("MIMG", 128, lambda n: 0xF0000000 | n << 18, [[0xF0000F00, 0x00000204],
                                                   [0xF0000F00, 0x00000404],
                                                   [0xF0000F00, 0x00000400],
                                                   [0xF0000100, 0x00000204],
                                                   [0xF0000100, 0x00000202],
                                                   [0xF0000100, 0x00000200],
                                                   [0xF0000300, 0x00000402]]),
]

# gfx10 (gfx1030): the same scalar and VOP1/VOP2/VOPC words; SMEM under prefix 0x3D with
# OFFSET and SOFFSET always present (SOFFSET 125, null, for none); VOP3 under 0x35 with a
# 10-bit opcode (VOP2 at 256 + op, VOP1 at 384 + op) and VOP3 literals; VOP3P under 0x33; the
# DS opcode in bits 25:18; FLAT/GLOBAL/SCRATCH with SADDR 125 for off; the MTBUF opcode in
# bits 18:16 plus word-1 bit 21, a format in 25:19 (1: BUF_FMT_8_UNORM); MUBUF's opcode bit
# 7 in bit 25, MIMG's in bit 0. An encoding's
# optional fifth entry gives the opcode bits of the second word.
ENCODINGS_GFX10 = [e for e in ENCODINGS if e[0] in ("SOP2", "SOP1", "SOPC", "SOPP", "VOP2",
                                                    "VOP1", "VOPC")] + [
    ("SOPK", 32, lambda n: 0xB0000000 | n << 23, [[0xB0040010], [0xB0040010, LIT],
                                                 [0xB0000000], [0xB0000000, LIT],
                                                 [0xB07D0000]]),
    ("SMEM", 256, lambda n: 0xF4000000 | n << 18, [[0xF4000100, 0xFA000010],
                                                   [0xF4000102, 0xFA000010],
                                                   [0xF4000000, 0xFA000010],
                                                   [0xF4000000, 0xFA000000],
                                                   [0xF4000000, 0x00000000]]),
    ("VOP3", 1024, lambda n: 0xD4000000 | n << 16,
     [[0xD4000000 | (w[0] & 0xFFFF)] + w[1:] for w in ENCODINGS[9][3]]
     + [[0xD4000002, 0x000206FF, LIT], [0xD4006A02, 0x000206FF, LIT]]),
    ("VOP3P", 128, lambda n: 0xCC000000 | n << 16,
     [[0xCC000000 | (w[0] & 0xFFFF)] + w[1:] for w in ENCODINGS[10][3]]),
    ("DS", 256, lambda n: 0xD8000000 | n << 18,
     [[w[0] & 0xFFFF | (0xD8020000 if w[0] & 0x10000 else 0xD8000000)] + w[1:]
      for w in ENCODINGS[11][3]]),
    ("FLAT", 128, lambda n: 0xDC000000 | n << 18, [[0xDC000000, 0x007D0002],
                                                   [0xDC000000, 0x027D0002],
                                                   [0xDC000000, 0x047D0402],
                                                   [0xDC000000, 0x027D0402],
                                                   [0xDC000000, 0x007D0402]]),
    ("SCRATCH", 128, lambda n: 0xDC004000 | n << 18, [[0xDC004000, 0x007D0002],
                                                      [0xDC004000, 0x007D0402],
                                                      [0xDC004000, 0x027D0002],
                                                      [0xDC004000, 0x007D0400]]),
    ("GLOBAL", 128, lambda n: 0xDC008000 | n << 18, [[0xDC008000, 0x007D0002],
                                                     [0xDC008000, 0x027D0002],
                                                     [0xDC008000, 0x047D0402],
                                                     [0xDC008000, 0x027D0402],
                                                     [0xDC008000, 0x007D0402]]),
    ("MTBUF", 16, lambda n: 0xE8000000 | (n & 7) << 16,
     [[0xE8081000, 0x80000201], [0xE8081000, 0x80000202], [0xE8081000, 0x80000400]],
     lambda n: (n >> 3) << 21),
    # MUBUF: opcode bit 7 in bit 25 (buffer_load_format_d16_* are 128..).
    ("MUBUF", 256, lambda n: 0xE0000000 | (n & 0x7F) << 18 | (n >> 7) << 25, ENCODINGS[15][3]),
    # MIMG: opcode bit 7 in bit 0 (image_bvh*_intersect_ray, 230/231, read 11 or 12 address
    # VGPRs with R128 set).
    ("MIMG", 256, lambda n: 0xF0000000 | (n & 0x7F) << 18 | n >> 7,
     ENCODINGS[-1][3] + [[0xF0009F00, 0x00010409]]),
]

# The marker after every line: s_movk_i32 s0, <line number> (SOPK 0, SIMM16).
MARKER = 0xB0000000


def words_line(words):
    return ",".join("0x%02x" % b for w in words for b in w.to_bytes(4, "little"))


def mnemonic(printed):
    for sfx in ("_e32", "_e64", "_sdwa", "_dpp"):
        if printed.endswith(sfx):
            return printed[: -len(sfx)]
    return printed


def decode(lines, mcpu):
    """llvm-mc decodes each of `lines` (word lists); returns the printed text or None."""
    src = []
    for i, words in enumerate(lines):
        src.append(words_line(words))
        src.append(words_line([MARKER | i]))
    r = subprocess.run([LLVM_MC, "--disassemble", "-arch=amdgcn", "-mcpu=" + mcpu],
                       input="\n".join(src) + "\n", capture_output=True, text=True)
    refused = {int(m.group(1)) for m in re.finditer(r"<stdin>:(\d+):\d+: warning", r.stderr)}
    out = [None] * len(lines)
    pending = []
    for line in r.stdout.splitlines():
        t = line.strip()
        if not t or t.startswith("."):
            continue
        m = re.match(r"s_movk_i32 s0, (0x[0-9a-f]+|\d+)$", t)
        if m:
            i = int(m.group(1), 0)
            if i < len(lines) and not (2 * i + 1) in refused and len(pending) == 1:
                out[i] = pending[0]
            pending = []
        else:
            pending.append(t)
    return out


def probe(mcpu):
    rows = []
    encodings = ENCODINGS_GFX10 if mcpu.startswith("gfx10") else ENCODINGS
    order = [e[0] for e in ENCODINGS]
    for enc, slots, opbits, templates, *opbits1 in sorted(encodings,
                                                          key=lambda e: order.index(e[0])):
        opbits1 = opbits1[0] if opbits1 else lambda n: 0
        found = {}
        for words in templates:
            todo = [n for n in range(slots) if n not in found]
            if not todo:
                break
            field = opbits(slots - 1) | opbits((1 << (slots - 1).bit_length()) - 1)
            w0 = words[0] & ~(field & ~opbits(0))
            lines = [[w0 | opbits(n)] + ([words[1] | opbits1(n)] if len(words) > 1 else [])
                     + words[2:] for n in todo]
            for n, words_n, text in zip(todo, lines, decode(lines, mcpu)):
                if text is None:
                    continue
                printed = text.split()[0]
                found[n] = (mnemonic(printed), printed, words_n)
        for n in sorted(found):
            m, printed, words = found[n]
            rows.append((enc, n, m, printed, " ".join("%08X" % w for w in words)))
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: sim_probe_optable.py MCPU > MCPU-optable.tsv")
    print("encoding\topcode\tmnemonic\tprinted\twords")
    for row in probe(sys.argv[1]):
        print("\t".join(str(c) for c in row))


if __name__ == "__main__":
    main()
