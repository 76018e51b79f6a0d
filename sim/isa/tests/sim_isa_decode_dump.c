/*
 * Prints sim's decoding of machine words, for sim_isa_decoder_check.py, which compares it
 * with llvm-objdump-19's decoding of the same words.
 *
 * Usage: sim_isa_decode_dump [TARGET] (gfx906, the default, gfx90a or gfx1030: whose
 * decoding).
 *
 * Input (stdin): one instruction per line, "OFFSET W0 [W1 .. W4]" in hex; the words after
 * the first are what follows the first word in memory (so a literal can be read). Output
 * (stdout): one line per input line, "OFFSET key=value ...", every field of sim_inst the
 * decoder fills, as plain numbers; the script maps LLVM's text onto these keys. Nothing
 * here interprets the fields, so a wrong field shows as a mismatch, not as a second bug.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim_isa_priv.h"

/* The interpreter's memory lookup; nothing is executed here. */
const sim_alloc *sim__mem_find(uint64_t va);
const sim_alloc *
sim__mem_find(uint64_t va)
{
   (void)va;
   return NULL;
}

static void
dump(const sim_target *t, const char *tag, const uint32_t *w, size_t avail)
{
   sim_inst in;
   sim__decode(t, w, avail, &in);
   printf("%s op=%s enc=%s size=%u", tag, sim__op_names[in.op], sim__enc_names[in.enc], in.size);
   if (in.op == SIM_OP_INVALID) {
      printf("\n");
      return;
   }
   printf(" src0=%u src1=%u src2=%u vdst=%u sdst=%u lit=%u imm=%d flags=%u", in.src[0], in.src[1],
          in.src[2], in.vdst, in.sdst, in.literal, in.imm, in.flags);
   printf(" neg=%u abs=%u neg_hi=%u op_sel=%u op_sel_hi=%u clamp=%u omod=%u", in.neg, in.abs,
          in.neg_hi, in.op_sel, in.op_sel_hi, in.clamp, in.omod);
   if (strncmp(sim__op_names[in.op], "v_mfma_", 7) == 0)
      printf(" cbsz=%u abid=%u blgp=%u acc_cd=%u acc=%u", in.mfma.cbsz, in.mfma.abid,
             in.mfma.blgp, in.mfma.acc_cd, in.mfma.acc);
   switch (in.enc) {
   case SIM_ENC_VOP1_SDWA:
   case SIM_ENC_VOP2_SDWA:
   case SIM_ENC_VOPC_SDWA:
      printf(" dst_sel=%u dst_unused=%u sel0=%u sel1=%u sext=%u", in.sdwa.dst_sel,
             in.sdwa.dst_unused, in.sdwa.sel[0], in.sdwa.sel[1], in.sdwa.sext);
      break;
   case SIM_ENC_VOP1_DPP:
   case SIM_ENC_VOP2_DPP:
   case SIM_ENC_VOPC_DPP:
      printf(" dpp_ctrl=%u row_mask=%u bank_mask=%u bound_ctrl=%u fi=%u sel8=%u", in.dpp.ctrl,
             in.dpp.row_mask, in.dpp.bank_mask, in.dpp.bound_ctrl, in.dpp.fi, in.dpp.sel8);
      break;
   case SIM_ENC_MIMG:
      printf(" vaddr=%u vdata=%u srsrc=%u ssamp=%u dmask=%u mimg=%u dim=%u nsa=%u", in.mimg.vaddr,
             in.mimg.vdata, in.mimg.srsrc, in.mimg.ssamp, in.mimg.dmask, in.mimg.bits,
             in.mimg.dim, in.mimg.nsa);
      /* The NSA address VGPRs, little-endian bytes of one hexadecimal number. */
      printf(" nsa_addr=0x0");
      for (unsigned i = 4u * in.mimg.nsa; i-- > 0;)
         printf("%02x", in.mimg.nsa_addr[i]);
      break;
   case SIM_ENC_DS:
   case SIM_ENC_FLAT:
   case SIM_ENC_GLOBAL:
   case SIM_ENC_SCRATCH:
   case SIM_ENC_MUBUF:
   case SIM_ENC_MTBUF:
   case SIM_ENC_SMEM:
      printf(" addr=%u data0=%u data1=%u offset1=%u saddr=%u srsrc=%u soffset=%u sbase=%u",
             in.mem.addr, in.mem.data0, in.mem.data1, in.mem.offset1, in.mem.saddr, in.mem.srsrc,
             in.mem.soffset, in.mem.sbase);
      break;
   default:
      break;
   }
   printf("\n");
}

int
main(int argc, char **argv)
{
   const sim_target *t = sim__target_by_name(argc > 1 ? argv[1] : "gfx906");
   if (!t) {
      fprintf(stderr, "unknown target %s (known: %s)\n", argv[1], sim__target_names());
      return 2;
   }
   char line[256];
   while (fgets(line, sizeof(line), stdin)) {
      char tag[32];
      uint32_t w[5] = { 0 };
      int n = sscanf(line, "%31s %x %x %x %x %x", tag, &w[0], &w[1], &w[2], &w[3], &w[4]);
      if (n < 2) {
         fprintf(stderr, "bad input line: %s", line);
         return 2;
      }
      dump(t, tag, w, (size_t)(n - 1) * 4);
   }
   return 0;
}
