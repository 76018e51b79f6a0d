/*
 * The test harness's assembler: LLVM's MC layer in this process, doing what
 * `llvm-mc -triple=amdgcn-amd-amdhsa -mcpu=CPU -filetype=obj` does (the same parser, encoder
 * and ELF writer, from the libLLVM the translator opens, which sim_isa_test links). A
 * process per snippet cost a libLLVM load each (about 0.1 s of CPU; sim_isa_test assembles
 * some 430 snippets, and CI runs it five times, under ASan and TSan too).
 */
#include <llvm/MC/MCAsmBackend.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCCodeEmitter.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCObjectWriter.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>

#include "sim_isa_test_asm.h"

using namespace llvm;

static const Target *
amdgcn_target(const Triple &tt)
{
   static std::once_flag once;
   std::call_once(once, [] {
      LLVMInitializeAMDGPUTargetInfo();
      LLVMInitializeAMDGPUTargetMC();
      LLVMInitializeAMDGPUAsmParser();
   });
   std::string err;
   const Target *t = TargetRegistry::lookupTarget(tt.getTriple(), err);
   if (!t)
      errs() << "no amdgcn target in this LLVM: " << err << "\n";
   return t;
}

extern "C" uint8_t *
t_assemble_object(const char *mcpu, const char *src, size_t *size)
{
   const Triple tt("amdgcn-amd-amdhsa");
   const Target *t = amdgcn_target(tt);
   if (!t)
      return nullptr;
   MCTargetOptions opts;
   std::unique_ptr<MCRegisterInfo> mri(t->createMCRegInfo(tt.getTriple()));
   std::unique_ptr<MCAsmInfo> mai(t->createMCAsmInfo(*mri, tt.getTriple(), opts));
   std::unique_ptr<MCInstrInfo> mii(t->createMCInstrInfo());
   std::unique_ptr<MCSubtargetInfo> sti(t->createMCSubtargetInfo(tt.getTriple(), mcpu, ""));
   if (!mri || !mai || !mii || !sti)
      return nullptr;

   SourceMgr sm; /* its diagnostics go to stderr, as llvm-mc's do */
   sm.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(src, "<snippet>"), SMLoc());
   MCContext ctx(tt, mai.get(), mri.get(), sti.get(), &sm, &opts);
   std::unique_ptr<MCObjectFileInfo> mofi(t->createMCObjectFileInfo(ctx, /*PIC=*/false));
   ctx.setObjectFileInfo(mofi.get());

   SmallVector<char, 0> obj;
   raw_svector_ostream os(obj);
   std::unique_ptr<MCAsmBackend> mab(t->createMCAsmBackend(*sti, *mri, opts));
   std::unique_ptr<MCCodeEmitter> ce(t->createMCCodeEmitter(*mii, ctx));
   if (!mab || !ce)
      return nullptr;
   std::unique_ptr<MCObjectWriter> ow = mab->createObjectWriter(os);
   std::unique_ptr<MCStreamer> streamer(
      t->createMCObjectStreamer(tt, ctx, std::move(mab), std::move(ow), std::move(ce), *sti));
   std::unique_ptr<MCAsmParser> parser(createMCAsmParser(sm, ctx, *streamer, *mai));
   std::unique_ptr<MCTargetAsmParser> tap(t->createMCAsmParser(*sti, *parser, *mii, opts));
   if (!streamer || !parser || !tap)
      return nullptr;
   parser->setTargetParser(*tap);
   /* Run() finishes the streamer, which writes the object into `obj`. */
   if (parser->Run(/*NoInitialTextSection=*/false))
      return nullptr;
   uint8_t *out = static_cast<uint8_t *>(malloc(obj.size()));
   if (!out)
      return nullptr;
   memcpy(out, obj.data(), obj.size());
   *size = obj.size();
   return out;
}
