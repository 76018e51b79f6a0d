// comp_llvm_priv.h — what the engine's C++ files share (comp_llvm.cpp: the build and its back
// half; comp_llvm_front.cpp: the clang invocation and the front halves; comp_llvm_libs.cpp:
// the device libraries). C++ only; the engine's contract with C is comp_llvm.h. Everything
// here is in namespace comp, so that the files' own helpers stay in anonymous namespaces.
#ifndef COMP_LLVM_PRIV_H
#define COMP_LLVM_PRIV_H

#include "comp_priv.h"

#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/TargetParser.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CodeGenOptions;
class CompilerInstance;
class LangOptions;
class TargetOptions;
} // namespace clang
namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

// What -mlink-builtin-bitcode applies to every function of a builtin-bitcode module before
// linking it (clang/lib/CodeGen/CGCall.cpp, declared in the non-installed CGCall.h; exported
// by libclang-cpp 19): the build's default function attributes (denormal mode, fast-math
// flags, target CPU and features, convergent, ...) merged into the function's own.
namespace clang::CodeGen {
void mergeDefaultFunctionDefinitionAttributes(llvm::Function &F, const CodeGenOptions &CodeGenOpts,
                                              const LangOptions &LangOpts,
                                              const TargetOptions &TargetOpts,
                                              bool WillInternalize);
} // namespace clang::CodeGen

namespace comp {

// Virtual path of the embedded headers in each build's in-memory filesystem.
constexpr const char *kVirtualHeaders = "/hsacl-virtual/include";

// The name of comp_builtins.cl's bitcode (the module identifier of its DeviceLib).
constexpr const char *kBuiltinsName = "hsacl-builtins.bc";

// The flat work-group size clang's OpenCL front end gives a kernel without
// reqd_work_group_size or amdgpu_flat_work_group_size (CodeGen/Targets/AMDGPU.cpp), and what
// ilFrontHalf gives an IL kernel alike.
constexpr const char *kDefaultFlatWorkGroupSize = "1,256";

// The process-wide state of the engine, made once on its first build (globals(): LLVM's
// targets, the fatal-error handler, the device library bytes). Read-only once made. The
// libraries are parsed later, by the builds that link them (deviceLibLayout, linkDeviceLibs).
struct Globals {
   std::string libDir;
   std::unique_ptr<llvm::MemoryBuffer> libs[3];
   std::string libError; // non-empty if the device libraries could not be read
};

Globals &
globals();

// A parsed target ID (parseTarget, comp_llvm.cpp).
struct Target {
   std::string cpu;
   std::vector<std::string> features; // "+xnack", "-sramecc"
   llvm::AMDGPU::IsaVersion isa;
   unsigned arch;
   bool wave64;
   bool defaultDaz;
};

// LLVM diagnostics of one build (llvm::Linker, the optimiser, the backend) into the build log.
// Without it an error diagnostic would end the process (LLVMContext's default handler).
struct LogDiagnosticHandler : llvm::DiagnosticHandler {
   llvm::raw_ostream &os;
   bool &error;
   LogDiagnosticHandler(llvm::raw_ostream &os, bool &error) : os(os), error(error) {}
   bool handleDiagnostics(const llvm::DiagnosticInfo &di) override
   {
      switch (di.getSeverity()) {
      case llvm::DS_Error:
         error = true;
         os << "error: ";
         break;
      case llvm::DS_Warning:
         os << "warning: ";
         break;
      case llvm::DS_Note:
         os << "note: ";
         break;
      default:
         return true; // remarks are not requested
      }
      llvm::DiagnosticPrinterRawOStream printer(os);
      di.print(printer);
      os << "\n";
      return true;
   }
};

// A build's bounds (issue #17: a macro doubling 40 times grew to 6 GB; 100,000 kernels took
// 180 s and 2 GB). Each is an environment variable; 0 lifts the bound.
struct BuildLimits {
   uint64_t maxSource;  // HSACL_BUILD_MAX_SOURCE: bytes of source and embedded headers
   uint64_t maxTokens;  // HSACL_BUILD_MAX_TOKENS: tokens after preprocessing
   uint64_t maxKernels; // HSACL_BUILD_MAX_KERNELS: kernels in one program
};

// The bounds, read from the environment at every call (comp_llvm_front.cpp).
BuildLimits
buildLimits();

// True when the build's thread is within its stack margin (the build then stops through the
// fatal-error trap; comp_llvm.cpp).
bool
stackNearlyExhausted();

// comp_llvm_front.cpp: the cc1 argument vector for `d` (see there).
std::vector<std::string>
cc1Args(const comp_build_desc &d, const Target &t, const comp__options &o, bool daz,
        const char *mainName);

// comp_llvm_front.cpp: configures `ci` from a cc1 argument vector: language, codegen and
// target options, diagnostics into the log, files through `fs`. False (the log says why) if
// clang rejects the vector.
bool
setupInstance(clang::CompilerInstance &ci, const std::vector<std::string> &args,
              llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, llvm::raw_ostream &logOS);

// comp_llvm_front.cpp: clang on d.source up to unoptimised IR, in `ctx`; nullptr when the
// source does not compile (the diagnostics are in the log).
std::unique_ptr<llvm::Module>
frontHalf(clang::CompilerInstance &ci, const comp_build_desc &d, const char *mainName,
          llvm::LLVMContext &ctx);

// comp_llvm_front.cpp: the front half of an IL program (SPIR-V through the translator,
// retargeted to amdgcn); nullptr with the reason in the log and `st` set.
std::unique_ptr<llvm::Module>
ilFrontHalf(clang::CompilerInstance &ci, const comp_build_desc &d, const Globals &g,
            const comp__options &o, llvm::LLVMContext &ctx, llvm::raw_ostream &logOS,
            comp_status &st);

// comp_llvm_libs.cpp: the device libraries' data layout (opencl.bc's, for the generated oclc
// module and retargeted SPIR), read from the library's module the first time a build asks;
// nullptr with the reason in `error` if the library does not parse.
const std::string *
deviceLibLayout(const Globals &g, std::string &error);

// comp_llvm_libs.cpp: the oclc_* control constants of a build into `m`.
void
fillControlModule(llvm::Module &m, const std::string &dataLayout, const Target &t,
                  const comp__options &o, bool daz);

// comp_llvm_libs.cpp: links the device libraries into `m` as clang's -mlink-builtin-bitcode
// does; false with the reason in the log.
bool
linkDeviceLibs(clang::CompilerInstance &ci, const Globals &g, const Target &t,
               const comp__options &o, bool daz, llvm::Module &m, llvm::raw_ostream &logOS);

// The prefix of the marker symbols comp_wgfree.cpp gives kernels that cannot tell how
// their work-items are grouped (comp_kernel.work_group_free).
constexpr const char *kWorkGroupFreePrefix = COMP_WORK_GROUP_FREE_PREFIX;

// Marks the kernels of `m` (a program's own IR, before the device libraries) that cannot
// observe their work-group size (comp_wgfree.cpp).
void
markWorkGroupFree(llvm::Module &m);

} // namespace comp

#endif // COMP_LLVM_PRIV_H
