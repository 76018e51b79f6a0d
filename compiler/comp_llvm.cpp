// comp_llvm.cpp — OpenCL C -> amdgcn code object, in process.
//
// Two halves. The front half is clang cc1 (CompilerInstance from an argument vector we build
// the way clang's driver would for `-x cl -target amdgcn-amd-amdhsa`) stopping at unoptimised
// IR: clCompileProgram's compiled object is that IR as bitcode. clLinkProgram joins compiled
// objects and libraries with llvm::Linker (-create-library stops there: a library is bitcode
// too). The back half, shared by clBuildProgram and clLinkProgram (backHalf), links the ROCm
// device libraries with -mlink-builtin-bitcode semantics (attributes propagated from the
// build's options, only what is needed, internalized: what clang's
// BackendConsumer::LinkInModules does), hsacl's own overrides of non-conforming
// device-library builtins (comp_builtins.cl, embedded bitcode) linked the same way ahead of
// them, the oclc_* control constants generated per build as an IR module, then O3 and codegen
// through clang's EmitBackendOutput into a relocatable object in memory, then lld's ELF
// driver in process with memfd/pipe "files".
//
// Threads: one CompilerInstance and LLVMContext per build. Process-wide state: the device
// library bytes (read once, read-only, shared by every build) and lld, which is not
// re-entrant and runs under g_lld_mutex.
//
// Fatal errors: LLVM reports some errors on bad input (an intrinsic the target cannot
// select, ...) through report_fatal_error, which ends the process. hsacl installs LLVM's
// fatal-error handler once per process (fatalErrorHandler; LLVM has one handler slot, there
// is no per-thread one): on a thread inside comp_build it records the message and longjmps
// back to comp_build, which returns COMP_BUILD_FAILURE with the message in the log; on any
// other thread it does what LLVM does without a handler (message on stderr, then LLVM ends
// the process). The abandoned build's frames are not unwound: what it had allocated is
// leaked (its LLVMContext included, which may be referenced by value handles on those
// frames, so it must not be destroyed), and nothing of it is touched again. lld runs with
// the trap off (it has its own recovery, and the trap would leave g_lld_mutex held).
// Crashes (SIGSEGV, ... inside clang/LLVM) are caught only with HSACL_CRASH_RECOVERY=1:
// llvm::CrashRecoveryContext::Enable installs process-wide signal handlers that replace the
// application's, and re-raise a signal from a thread outside a build without its siginfo
// (which breaks runtimes that rely on SIGSEGV, such as JVMs), so a library cannot do it
// behind the application's back.

#include "comp_builtins.h"
#include "comp_priv.h"

#include <llvm/IR/Verifier.h>
#include "comp_include_jail.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/CodeGen/BackendUtil.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Scalar/SCCP.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/TargetParser.h"

#include <cerrno>
#include <csetjmp>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

LLD_HAS_DRIVER(elf)

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

#ifndef HSACL_DEVICE_LIB_DIR
#error "HSACL_DEVICE_LIB_DIR must be defined by the build"
#endif
#ifndef HSACL_CLANG_RESOURCE_DIR
#error "HSACL_CLANG_RESOURCE_DIR must be defined by the build"
#endif
#ifndef HSACL_VERSION
#define HSACL_VERSION "0"
#endif

namespace {

// Virtual path of the embedded headers in each build's in-memory filesystem.
constexpr const char *kVirtualHeaders = "/hsacl-virtual/include";
constexpr const char *kDeviceLibNames[] = { "opencl.bc", "ocml.bc", "ockl.bc" };
// The name of comp_builtins.cl's bitcode in the identity hash.
constexpr const char *kBuiltinsName = "hsacl-builtins.bc";

// Named metadata of compiled objects and libraries (COMP_EMIT_BITCODE): one string operand
// per compiled object with its clCompileProgram options (a library carries those of every
// object it holds), and, on a library created with -enable-link-options, the marker that
// link options may change it.
constexpr const char *kOptionsMD = "hsacl.compile_options";
constexpr const char *kLinkOptionsMD = "hsacl.enable_link_options";

struct Globals {
   std::string libDir;
   std::unique_ptr<llvm::MemoryBuffer> libs[3];
   std::string dataLayout; // of the device libraries, for the generated oclc module
   std::string libError;   // non-empty if the device libraries could not be loaded
   std::string identity;
};

std::once_flag g_once;
Globals *g_globals;
std::mutex g_lld_mutex;
bool g_lld_unusable; // lld reported it cannot run again in this process; under g_lld_mutex

uint64_t
fnv1a(uint64_t h, llvm::StringRef data)
{
   for (unsigned char c : data) {
      h ^= c;
      h *= 0x100000001b3ULL;
   }
   return h;
}

// Where a fatal LLVM error on this thread goes: set by comp_build around a build, cleared by
// the handler before it jumps and while lld runs.
struct FatalTrap {
   std::jmp_buf jump;
   std::string reason;
};
thread_local FatalTrap *t_fatalTrap;

// The build's stack (BuildStack). Clang parses, checks and generates code for nested
// source constructs by recursion: a deeply nested expression (200,000 unary minus signs,
// or a chain of 200,000 additions that Sema walks recursively) overflowed the calling
// thread's 8 MiB stack and killed the process. Every build therefore runs on a thread of
// its own with kBuildStackBytes of address space reserved (MAP_NORESERVE: only the pages a
// build touches cost memory), and the parser's token watcher abandons the build through
// the fatal-error trap while fewer than a sixteenth of it remains: recursion that
// follows the source's nesting consumes tokens as it deepens, so it is stopped at a safe
// point. Recursion that runs without reading tokens (Sema's and code generation's walks of
// an already built tree) is bounded by the tree's depth, which HSACL_BUILD_MAX_TOKENS
// bounds: at its default (8M tokens, a tree of at most 4M levels) the reservation covers
// about 1 KiB a level.
// HSACL_BUILD_STACK (bytes, read at every build) overrides the reservation; the margin is a
// sixteenth of it.
constexpr size_t kBuildStackBytes = size_t(4) << 30;
thread_local uintptr_t t_stackLimit; // lowest stack address the parser may reach; 0: none

size_t
buildStackBytes()
{
   const char *env = getenv("HSACL_BUILD_STACK");
   char *end = nullptr;
   unsigned long long v = env && *env ? strtoull(env, &end, 0) : 0;
   if (!v || (end && *end) || v < (4ull << 20) || v > (64ull << 30))
      return kBuildStackBytes;
   return size_t(v) & ~size_t(0xffff);
}

bool
stackNearlyExhausted()
{
   return t_stackLimit && (uintptr_t)__builtin_frame_address(0) < t_stackLimit;
}

void
fatalErrorHandler(void *, const char *reason, bool)
{
   FatalTrap *trap = t_fatalTrap;
   if (!trap) {
      // Not an hsacl build: LLVM's own behaviour without a handler (it ends the process
      // when this returns).
      std::string msg = std::string("LLVM ERROR: ") + reason + "\n";
      ssize_t n = write(2, msg.data(), msg.size());
      (void)n;
      return;
   }
   t_fatalTrap = nullptr;
   trap->reason = reason;
   std::longjmp(trap->jump, 1);
}

// The GNU build ID of the object this code is linked into (libhsacl.so, hsacl-cc), in hex:
// the compiler's own code is part of what a code object is built from, so a rebuilt or
// upgraded hsacl must not take the kernel cache's entries of another build (a fixed
// miscompile would stay cached). "none" when the object has no build ID note.
std::string
ownBuildId()
{
   Dl_info info;
   if (!dladdr(reinterpret_cast<void *>(&ownBuildId), &info) || !info.dli_fbase)
      return "none";
   struct Search {
      const void *base;
      std::string id;
   } search{ info.dli_fbase, "" };
   dl_iterate_phdr(
      [](struct dl_phdr_info *pi, size_t, void *data) -> int {
         auto *s = static_cast<Search *>(data);
         for (int i = 0; i < pi->dlpi_phnum; i++) {
            const ElfW(Phdr) &ph = pi->dlpi_phdr[i];
            if (ph.p_type == PT_LOAD && ph.p_offset == 0 &&
                reinterpret_cast<const void *>(pi->dlpi_addr + ph.p_vaddr) != s->base)
               return 0; // another object
         }
         for (int i = 0; i < pi->dlpi_phnum; i++) {
            const ElfW(Phdr) &ph = pi->dlpi_phdr[i];
            if (ph.p_type != PT_NOTE)
               continue;
            const char *p = reinterpret_cast<const char *>(pi->dlpi_addr + ph.p_vaddr);
            const char *end = p + ph.p_memsz;
            while (p + sizeof(ElfW(Nhdr)) <= end) {
               const auto *n = reinterpret_cast<const ElfW(Nhdr) *>(p);
               const char *name = p + sizeof(*n);
               const char *desc = name + ((n->n_namesz + 3) & ~3u);
               if (desc + n->n_descsz > end)
                  break;
               if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
                  static const char digits[] = "0123456789abcdef";
                  for (unsigned k = 0; k < n->n_descsz; k++) {
                     s->id += digits[(unsigned char)desc[k] >> 4];
                     s->id += digits[(unsigned char)desc[k] & 15];
                  }
                  return 1;
               }
               p = desc + ((n->n_descsz + 3) & ~3u);
            }
         }
         return 1;
      },
      &search);
   return search.id.empty() ? "none" : search.id;
}

void
initGlobals()
{
   LLVMInitializeAMDGPUTargetInfo();
   LLVMInitializeAMDGPUTarget();
   LLVMInitializeAMDGPUTargetMC();
   LLVMInitializeAMDGPUAsmPrinter();
   LLVMInitializeAMDGPUAsmParser();

   llvm::install_fatal_error_handler(fatalErrorHandler, nullptr);
   const char *recovery = getenv("HSACL_CRASH_RECOVERY");
   if (recovery && *recovery && strcmp(recovery, "0") != 0)
      llvm::CrashRecoveryContext::Enable();

   auto *g = new Globals;
   const char *env = getenv("HSACL_DEVICE_LIBS");
   g->libDir = env && *env ? env : HSACL_DEVICE_LIB_DIR;
   uint64_t hash = 0xcbf29ce484222325ULL;
   for (size_t i = 0; i < 3; i++) {
      std::string path = g->libDir + "/" + kDeviceLibNames[i];
      auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      if (!buf) {
         g->libError = "cannot read device library " + path + ": " + buf.getError().message();
         break;
      }
      g->libs[i] = std::move(*buf);
      hash = fnv1a(hash, kDeviceLibNames[i]);
      hash = fnv1a(hash, g->libs[i]->getBuffer());
   }
   // The overrides are part of what a code object is built from: changing them changes the
   // identity (and so the kernel cache key).
   hash = fnv1a(hash, kBuiltinsName);
   hash = fnv1a(hash, llvm::StringRef(reinterpret_cast<const char *>(comp_builtins_bc),
                                      comp_builtins_bc_size));
   if (g->libError.empty()) {
      llvm::LLVMContext ctx;
      auto m = llvm::getLazyBitcodeModule(g->libs[0]->getMemBufferRef(), ctx);
      if (!m) {
         g->libError = "malformed device library " + g->libDir + "/opencl.bc: " +
                       llvm::toString(m.takeError());
      } else {
         g->dataLayout = (*m)->getDataLayoutStr();
      }
   }
   char hex[17];
   snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)hash);
   g->identity = std::string("hsacl-compiler/") + HSACL_VERSION + " build " + ownBuildId() +
                 " LLVM " + LLVM_VERSION_STRING + " device-libs " +
                 (g->libError.empty() ? hex : "missing");
   g_globals = g;
}

Globals &
globals()
{
   std::call_once(g_once, initGlobals);
   return *g_globals;
}

char *
dupString(llvm::StringRef s)
{
   char *p = static_cast<char *>(malloc(s.size() + 1));
   if (p) {
      memcpy(p, s.data(), s.size());
      p[s.size()] = 0;
   }
   return p;
}

struct Target {
   std::string cpu;
   std::vector<std::string> features; // "+xnack", "-sramecc"
   llvm::AMDGPU::IsaVersion isa;
   unsigned arch;
   bool wave64;
   bool defaultDaz;
};

// The device libraries' opencl.bc defines `printf` as a stub (noinline optnone, calls
// __printf_alloc(0), returns -1) so that linking it pulls __printf_alloc in. LLVM's
// AMDGPUPrintfRuntimeBinding pass (early simplification) lowers printf calls into printf-buffer
// stores through __printf_alloc and emits amdhsa.printf, but only while printf is a
// declaration. Linked with builtin-bitcode semantics the stub is a definition, every printf
// would return -1 and print nothing (clang-19's own driver does exactly that). This pass runs
// at pipeline start, after the device libraries are linked and before the printf binding, and
// turns the stub back into a declaration; __printf_alloc stays defined for the binding to use.
struct PrintfStubPass : llvm::PassInfoMixin<PrintfStubPass> {
   llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
   {
      llvm::Function *f = m.getFunction("printf");
      if (!f || f->isDeclaration())
         return llvm::PreservedAnalyses::all();
      f->deleteBody();
      f->setLinkage(llvm::GlobalValue::ExternalLinkage);
      f->setVisibility(llvm::GlobalValue::DefaultVisibility);
      return llvm::PreservedAnalyses::none();
   }
};

// Parses "gfx906", "gfx90a:xnack-", "gfx906:sramecc+:xnack-" (AMDGPUUsage "Target ID").
bool
parseTarget(const char *id, Target &t, std::string &why)
{
   if (!id || !*id) {
      why = "no target ID";
      return false;
   }
   llvm::SmallVector<llvm::StringRef, 4> parts;
   llvm::StringRef(id).split(parts, ':');
   t.cpu = parts[0].str();
   llvm::AMDGPU::GPUKind kind = llvm::AMDGPU::parseArchAMDGCN(parts[0]);
   if (kind == llvm::AMDGPU::GK_NONE) {
      why = "unknown AMDGPU processor '" + t.cpu + "'";
      return false;
   }
   t.arch = llvm::AMDGPU::getArchAttrAMDGCN(kind);
   t.isa = llvm::AMDGPU::getIsaVersion(parts[0]);
   for (size_t i = 1; i < parts.size(); i++) {
      llvm::StringRef f = parts[i];
      if (f.size() < 2 || (f.back() != '+' && f.back() != '-')) {
         why = "malformed target feature '" + f.str() + "' in '" + id + "'";
         return false;
      }
      llvm::StringRef name = f.drop_back();
      unsigned need = 0;
      if (name == "xnack")
         need = llvm::AMDGPU::FEATURE_XNACK;
      else if (name == "sramecc")
         need = llvm::AMDGPU::FEATURE_SRAMECC;
      if (!need || !(t.arch & need)) {
         why = "target feature '" + name.str() + "' is not supported by " + t.cpu;
         return false;
      }
      t.features.push_back(std::string(1, f.back()) + name.str());
   }
   // Wave64 on GFX9 and older, wave32 (the LLVM default) on GFX10+.
   t.wave64 = !(t.arch & llvm::AMDGPU::FEATURE_WAVE32);
   // As clang's AMDGPUToolChain::getDefaultDenormsAreZeroForTarget: flush f32 denormals
   // unless both FMA and denormals are fast.
   t.defaultDaz = !((t.arch & llvm::AMDGPU::FEATURE_FAST_FMA_F32) &&
                    (t.arch & llvm::AMDGPU::FEATURE_FAST_DENORMAL_F32));
   return true;
}

// The oclc_* control constants (rocm-device-libs oclc/), as the oclc_*.bc files define them:
// linkonce_odr protected local_unnamed_addr addrspace(4) constants.
void
fillControlModule(llvm::Module &m, const std::string &dataLayout, const Target &t,
                  const comp__options &o, bool daz)
{
   llvm::LLVMContext &ctx = m.getContext();
   m.setTargetTriple("amdgcn-amd-amdhsa");
   m.setDataLayout(dataLayout);
   auto add = [&](const char *name, unsigned bits, uint64_t value) {
      llvm::Type *ty = llvm::Type::getIntNTy(ctx, bits);
      auto *gv = new llvm::GlobalVariable(m, ty, /*isConstant=*/true,
                                          llvm::GlobalValue::LinkOnceODRLinkage,
                                          llvm::ConstantInt::get(ty, value), name, nullptr,
                                          llvm::GlobalValue::NotThreadLocal, /*AddrSpace=*/4);
      gv->setVisibility(llvm::GlobalValue::ProtectedVisibility);
      gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Local);
      gv->setAlignment(llvm::Align(bits / 8));
   };
   add("__oclc_ISA_version", 32, t.isa.Major * 1000 + t.isa.Minor * 100 + t.isa.Stepping);
   add("__oclc_ABI_version", 32, 500);
   add("__oclc_wavefrontsize64", 8, t.wave64);
   add("__oclc_daz_opt", 8, daz);
   add("__oclc_finite_only_opt", 8, o.finite_math_only);
   add("__oclc_unsafe_math_opt", 8, o.unsafe_math);
   add("__oclc_correctly_rounded_sqrt32", 8, o.correctly_rounded_sqrt);
}

const char *
stdName(unsigned v)
{
   switch (v) {
   case 100:
      return "-cl-std=CL1.0";
   case 110:
      return "-cl-std=CL1.1";
   case 200:
      return "-cl-std=CL2.0";
   case 300:
   case 310: // clang-19 has no CL3.1: cc1Args maps it onto CL3.0 (see there)
      return "-cl-std=CL3.0";
   default:
      return "-cl-std=CL1.2";
   }
}

// The cc1 argument vector clang-19's driver produces for
//   clang -x cl -target amdgcn-amd-amdhsa -mcpu=<cpu> -mcode-object-version=5 <options>
// with the ROCm device libraries (ROCMToolChain::addClangTargetOptions).
std::vector<std::string>
cc1Args(const comp_build_desc &d, const Target &t, const comp__options &o, bool daz,
        const char *mainName)
{
   // The frontend stops at unoptimised IR (-disable-llvm-passes; optimisation level and
   // every codegen option stay in the invocation for the back half, which clears the flag).
   std::vector<std::string> a = {
      "-cc1", "-triple", "amdgcn-amd-amdhsa", "-mcode-object-version=5",
      "-Werror=atomic-alignment", "-emit-llvm-only", "-disable-llvm-passes",
      "-clear-ast-before-backend", "-disable-llvm-verifier", "-discard-value-names",
      "-main-file-name", mainName, "-mrelocation-model", "pic", "-pic-level", "2",
      "-fhalf-no-semantic-interposition", "-mframe-pointer=all", "-ffp-contract=on",
      "-fno-rounding-math", "-mconstructor-aliases", "-fvisibility=hidden",
      "-fapply-global-visibility-to-externs",
      // `#pragma clang __debug crash` (and parser_crash, overflow_stack, llvm_fatal_error,
      // assert, ...) end or hang the process by design; with this they do nothing, and
      // PragmaDebugRefuser makes every `#pragma clang __debug` a build error.
      "-disable-pragma-debug-crash",
   };
   if (daz)
      a.push_back("-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
   a.push_back("-target-cpu");
   a.push_back(t.cpu);
   for (const std::string &f : t.features) {
      a.push_back("-target-feature");
      a.push_back(f);
   }
   if (o.debug_info) {
      a.push_back("-debug-info-kind=constructor");
      a.push_back("-dwarf-version=5");
      a.push_back("-debugger-tuning=gdb");
   }
   a.push_back("-resource-dir");
   a.push_back(HSACL_CLANG_RESOURCE_DIR);
   for (size_t i = 0; i < o.num_pp_args; i++)
      a.push_back(o.pp_args[i]);
   if (d.num_headers) {
      a.push_back("-I");
      a.push_back(kVirtualHeaders);
   }
   a.push_back("-ferror-limit");
   a.push_back("19");
   a.push_back(stdName(o.cl_std));
   a.push_back(o.opt_disable ? "-O0" : "-O3");
   struct {
      bool on;
      const char *flag;
   } flags[] = {
      { o.opt_disable, "-cl-opt-disable" },
      { o.single_precision_constant, "-cl-single-precision-constant" },
      { o.finite_math_only, "-cl-finite-math-only" },
      { o.kernel_arg_info, "-cl-kernel-arg-info" },
      { o.unsafe_math, "-cl-unsafe-math-optimizations" },
      { o.fast_relaxed_math, "-cl-fast-relaxed-math" },
      { o.mad_enable, "-cl-mad-enable" },
      { o.no_signed_zeros, "-cl-no-signed-zeros" },
      { o.correctly_rounded_sqrt, "-cl-fp32-correctly-rounded-divide-sqrt" },
      { o.strict_aliasing, "-cl-strict-aliasing" },
      { o.uniform_work_group_size, "-foffload-uniform-block" },
      { o.no_warnings, "-w" },
      { o.werror, "-Werror" },
   };
   for (const auto &f : flags)
      if (f.on)
         a.push_back(f.flag);
   if (d.extensions) {
      std::string ext = "-cl-ext=-all";
      std::vector<std::string> defines;
      auto enable = [&](const char *name) {
         ext += std::string(",+") + name;
         // OpenCL C 3.0 §6.2.1: a feature's macro is defined iff it is supported. clang-19
         // defines one from -cl-ext only for the features of its OpenCLExtensions.def; the
         // "header-only" ones (atomic scopes, work-group collectives) opencl-c-base.h defines
         // for SPIR targets only, so every enabled feature is defined here (the same "1").
         if (o.cl_std >= 300 && !strncmp(name, "__opencl_c_", 11))
            defines.push_back(std::string("-D") + name + "=1");
         // The same for the extensions clang-19 knows only from opencl-c-base.h, which
         // defines their macros for SPIR targets from OpenCL C 2.0 on; its builtin
         // declarations key on the macro.
         static const char *const headerOnly[] = {
            "cl_khr_subgroup_extended_types",
            "cl_khr_subgroup_shuffle",
            "cl_khr_subgroup_shuffle_relative",
            "cl_khr_subgroup_rotate",
            "cl_khr_subgroup_ballot",
            "cl_khr_subgroup_non_uniform_vote",
            "cl_khr_subgroup_non_uniform_arithmetic",
            "cl_khr_subgroup_clustered_reduce",
         };
         if (o.cl_std >= 200)
            for (const char *h : headerOnly)
               if (!strcmp(name, h))
                  defines.push_back(std::string("-D") + name + "=1");
         // Extensions of every OpenCL C version (they need no 2.0 feature) that clang-19
         // likewise declares only from their macros. The integer dot product functions key
         // on the feature macros of their input formats, which OpenCL C 3.0 defines from
         // the feature list above and earlier versions from the extension.
         // clang defines __IMAGE_SUPPORT__ for SPIR targets only (InitPreprocessor); the
         // device names image support with the __opencl_c_images feature in every profile
         // (platform/plat_device.c), so every OpenCL C version sees the macro of §6.13.14.
         if (!strcmp(name, "__opencl_c_images"))
            defines.push_back("-D__IMAGE_SUPPORT__=1");
         if (!strcmp(name, "cl_khr_extended_bit_ops"))
            defines.push_back("-Dcl_khr_extended_bit_ops=1");
         // __builtin_expect and __builtin_assume are clang's in every version; the
         // extension only names them, and clang-19 does not know it.
         if (!strcmp(name, "cl_khr_expect_assume"))
            defines.push_back("-Dcl_khr_expect_assume=1");
         if (!strcmp(name, "cl_khr_integer_dot_product")) {
            defines.push_back("-Dcl_khr_integer_dot_product=1");
            if (o.cl_std < 300) {
               defines.push_back("-D__opencl_c_integer_dot_product_input_4x8bit=1");
               defines.push_back("-D__opencl_c_integer_dot_product_input_4x8bit_packed=1");
            }
         }
      };
      for (const char *const *e = d.extensions; *e; e++)
         enable(*e);
      for (const char *const *f = d.features; f && *f; f++)
         enable(*f);
      a.push_back(ext);
      a.insert(a.end(), defines.begin(), defines.end());
   }
   if (d.opencl_version)
      a.push_back("-D__OPENCL_VERSION__=" + std::to_string(d.opencl_version));
   // OpenCL C 3.1 on clang-19, which knows 3.0 at most: the language is parsed as 3.0 and the
   // version macros say 3.1. Nothing of 3.0 is lost or changed: OpenCL C 3.1 removes nothing
   // and adds, besides wording, (a) the built-ins of extensions it makes core, which the
   // device reports as extensions too, so clang declares them from their macros (headerOnly
   // above and the feature list), (b) printf's z and t length modifiers, which clang accepts
   // for OpenCL already (dispatch/disp_printf.c prints them), (c) clarified conversions and
   // fmin for half, which are library behaviour (compiler/comp_builtins.cl). The macros
   // come after clang's predefinitions and before the default header, which reads
   // __OPENCL_C_VERSION__ >= 200 only.
   if (o.cl_std == 310)
      a.insert(a.end(), { "-U__OPENCL_C_VERSION__", "-D__OPENCL_C_VERSION__=310",
                          "-DCL_VERSION_3_1=310" });
   a.insert(a.end(), { "-finclude-default-header", "-fdeclare-opencl-builtins",
                       "-fgnuc-version=4.2.1", "-fno-threadsafe-statics",
                       "-fskip-odr-check-in-gmf", "-faddrsig" });
   if (o.debug_info)
      a.push_back("-D__GCC_HAVE_DWARF2_CFI_ASM=1");
   a.insert(a.end(), { "-x", "cl", mainName });
   return a;
}

// Links a relocatable amdgcn object into a loadable code object with lld's ELF driver, as
// clang's driver runs `ld.lld --no-undefined -shared`. lld reads and writes paths: the input
// is a memfd, the output a pipe drained by a thread (a FIFO makes lld buffer the image in
// memory and write it on commit instead of creating a temporary file beside the output).
comp_status
linkExecutable(llvm::StringRef obj, std::string &image, llvm::raw_ostream &log)
{
   comp_status status = COMP_INTERNAL_ERROR;
   int pipefd[2] = { -1, -1 };
   int in = memfd_create("hsacl-object", MFD_CLOEXEC);
   if (in < 0) {
      log << "error: memfd_create: " << strerror(errno) << "\n";
      return COMP_INTERNAL_ERROR;
   }
   for (size_t off = 0; off < obj.size();) {
      ssize_t n = write(in, obj.data() + off, obj.size() - off);
      if (n < 0 && errno == EINTR)
         continue;
      if (n <= 0) {
         log << "error: writing the object to a memfd: " << strerror(errno) << "\n";
         close(in);
         return COMP_INTERNAL_ERROR;
      }
      off += n;
   }
   if (pipe2(pipefd, O_CLOEXEC) < 0) {
      log << "error: pipe: " << strerror(errno) << "\n";
      close(in);
      return COMP_INTERNAL_ERROR;
   }

   std::thread reader([&image, fd = pipefd[0]] {
      char buf[65536];
      for (;;) {
         ssize_t n = read(fd, buf, sizeof(buf));
         if (n < 0 && errno == EINTR)
            continue;
         if (n <= 0)
            break;
         image.append(buf, n);
      }
   });

   std::string inPath = "/proc/self/fd/" + std::to_string(in);
   std::string outPath = "/proc/self/fd/" + std::to_string(pipefd[1]);
   const char *args[] = { "ld.lld", "--no-undefined", "-shared", "--threads=1",
                          inPath.c_str(), "-o", outPath.c_str() };
   std::string lldLog;
   llvm::raw_string_ostream lldOS(lldLog);
   {
      std::lock_guard<std::mutex> lock(g_lld_mutex);
      if (g_lld_unusable) {
         log << "error: the in-process linker failed fatally earlier and cannot run again\n";
      } else {
         FatalTrap *trap = t_fatalTrap;
         t_fatalTrap = nullptr;
         lld::Result r = lld::lldMain(args, lldOS, lldOS, { { lld::Gnu, &lld::elf::link } });
         t_fatalTrap = trap;
         if (!r.canRunAgain)
            g_lld_unusable = true;
         status = r.retCode == 0 ? COMP_OK : COMP_LINK_FAILURE;
      }
   }
   close(pipefd[1]);
   reader.join();
   close(pipefd[0]);
   close(in);
   lldOS.flush();
   log << lldLog;
   if (status == COMP_OK && image.empty()) {
      log << "error: the linker produced no output\n";
      status = COMP_LINK_FAILURE;
   }
   return status;
}

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

// Configures `ci` from a cc1 argument vector: language, codegen and target options,
// diagnostics into the log, files through `fs`. False (the log says why) if clang rejects
// the vector.
bool
setupInstance(clang::CompilerInstance &ci, const std::vector<std::string> &args,
              llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, llvm::raw_ostream &logOS)
{
   std::vector<const char *> argv;
   for (size_t i = 1; i < args.size(); i++)
      argv.push_back(args[i].c_str());
   {
      llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOpts = new clang::DiagnosticOptions;
      clang::TextDiagnosticPrinter printer(logOS, diagOpts.get());
      clang::DiagnosticsEngine diags(new clang::DiagnosticIDs, diagOpts, &printer, false);
      auto inv = std::make_shared<clang::CompilerInvocation>();
      if (!clang::CompilerInvocation::CreateFromArgs(*inv, argv, diags) ||
          diags.hasErrorOccurred()) {
         logOS << "error: internal: clang rejected the generated arguments:";
         for (const char *a : argv)
            logOS << " " << a;
         logOS << "\n";
         return false;
      }
      ci.setInvocation(std::move(inv));
   }
   ci.getDiagnosticOpts().ShowColors = false;
   ci.getCodeGenOpts().PassBuilderCallbacks.push_back([](llvm::PassBuilder &pb) {
      pb.registerPipelineStartEPCallback(
         [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
            mpm.addPass(PrintfStubPass());
            compAddEarlyPasses(mpm);
         });
      // -cl-opt-disable: user functions are optnone, which the pass manager skips, but the
      // device-library functions are not. Their __oclc_ISA_version and
      // __oclc_wavefrontsize64 branches must still fold away, or code for other targets (GFX9
      // DPP row broadcasts in the ockl wave scans) reaches instruction selection on GFX10+
      // and fails ("Invalid dpp_ctrl value"), as it does with clang-19's driver. Runs last,
      // after the printf binding has used __printf_alloc.
      pb.registerOptimizerLastEPCallback(
         [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel level) {
            compAddLatePasses(mpm);
            if (level != llvm::OptimizationLevel::O0)
               return;
            llvm::FunctionPassManager fpm;
            fpm.addPass(llvm::SCCPPass());
            fpm.addPass(llvm::SimplifyCFGPass());
            mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
            mpm.addPass(llvm::GlobalDCEPass());
         });
   });
   ci.createDiagnostics(new clang::TextDiagnosticPrinter(logOS, &ci.getDiagnosticOpts()), true);
   ci.setVerboseOutputStream(logOS);
   ci.createFileManager(fs);
   return true;
}

// A build's bounds (issue #17: a macro doubling 40 times grew to 6 GB; 100,000 kernels took
// 180 s and 2 GB). Each is an environment variable; 0 lifts the bound.
struct BuildLimits {
   uint64_t maxSource;  // HSACL_BUILD_MAX_SOURCE: bytes of source and embedded headers
   uint64_t maxTokens;  // HSACL_BUILD_MAX_TOKENS: tokens after preprocessing
   uint64_t maxKernels; // HSACL_BUILD_MAX_KERNELS: kernels in one program
};

uint64_t
limitFromEnv(const char *name, uint64_t fallback)
{
   const char *e = getenv(name);
   if (!e || !*e)
      return fallback;
   char *end = nullptr;
   unsigned long long v = strtoull(e, &end, 10);
   if (end == e || *end)
      return fallback;
   return v ? v : UINT64_MAX;
}

BuildLimits
buildLimits()
{
   return { limitFromEnv("HSACL_BUILD_MAX_SOURCE", 64ull << 20),
            limitFromEnv("HSACL_BUILD_MAX_TOKENS", 8ull << 20),
            limitFromEnv("HSACL_BUILD_MAX_KERNELS", 16384) };
}

// clang's EmitLLVMOnlyAction that counts the tokens the parser receives and abandons the
// build past the bound (through the fatal-error trap: the parser cannot be stopped in the
// middle of a macro expansion; what the front end allocated until then is not reclaimed,
// at most what the bound's tokens cost). Tokens of macro arguments pre-expanded inside
// the preprocessor are not seen until they reach the parser.
class BoundedEmitAction : public clang::EmitLLVMOnlyAction {
 public:
   using clang::EmitLLVMOnlyAction::EmitLLVMOnlyAction;

 protected:
   bool BeginSourceFileAction(clang::CompilerInstance &ci) override
   {
      if (!clang::EmitLLVMOnlyAction::BeginSourceFileAction(ci))
         return false;
      ci.getPreprocessor().addPPCallbacks(
         std::make_unique<PragmaDebugRefuser>(ci.getDiagnostics()));
      uint64_t limit = buildLimits().maxTokens;
      // Every token lexed, at every level: the arguments of a function-like macro are
      // pre-expanded inside the preprocessor (a macro doubling its argument 40 times grew
      // past 23 GB there without one token reaching a level-0 watcher). The watcher also
      // stops a parse whose recursion nears the end of the build's stack (t_stackLimit).
      ci.getPreprocessor().setPreprocessToken(true);
      ci.getPreprocessor().setTokenWatcher([limit, n = uint64_t(0)](const clang::Token &) mutable {
         if (++n > limit)
            llvm::report_fatal_error(llvm::Twine("the preprocessed program exceeds ") +
                                     llvm::Twine(limit) +
                                     " tokens (HSACL_BUILD_MAX_TOKENS)", false);
         if (stackNearlyExhausted())
            llvm::report_fatal_error("the program nests too deeply for the compiler's stack",
                                     false);
      });
      if (limit != UINT64_MAX)
         ci.getPreprocessor().addPPCallbacks(std::make_unique<ExpansionCounter>(limit));
      return true;
   }

 private:
   // `#pragma clang __debug <command>` is clang's own test hook (crash, stack overflow,
   // fatal errors, dumps to stderr): no program has a use for it, so each is a build
   // error. Called once clang's handler ran, which -disable-pragma-debug-crash makes
   // harmless for the commands that would end the process.
   class PragmaDebugRefuser : public clang::PPCallbacks {
    public:
      explicit PragmaDebugRefuser(clang::DiagnosticsEngine &diags)
         : diags_(diags),
           id_(diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                     "'#pragma clang __debug %0' is not accepted: it is "
                                     "clang's debugging hook, not OpenCL C"))
      {
      }
      void PragmaDebug(clang::SourceLocation loc, llvm::StringRef command) override
      {
         diags_.Report(loc, id_) << command;
      }

    private:
      clang::DiagnosticsEngine &diags_;
      unsigned id_;
   };

   // Macro expansions, including those inside macro arguments that the preprocessor
   // pre-expands before the parser sees a token (a function-like macro doubling its argument
   // 40 times grew past 23 GB without one token reaching the watcher).
   class ExpansionCounter : public clang::PPCallbacks {
    public:
      explicit ExpansionCounter(uint64_t limit) : limit_(limit) {}
      void MacroExpands(const clang::Token &, const clang::MacroDefinition &,
                        clang::SourceRange, const clang::MacroArgs *) override
      {
         if (++n_ > limit_)
            llvm::report_fatal_error(llvm::Twine("the program expands more than ") +
                                     llvm::Twine(limit_) +
                                     " macros (HSACL_BUILD_MAX_TOKENS)", false);
      }

    private:
      uint64_t limit_, n_ = 0;
   };
};

// The front half: clang on d.source up to unoptimised IR (the invocation carries
// -disable-llvm-passes). Returns the module, in `ctx`, or nullptr when the source does not
// compile (the diagnostics are in the log).
std::unique_ptr<llvm::Module>
frontHalf(clang::CompilerInstance &ci, const comp_build_desc &d, const char *mainName,
          llvm::LLVMContext &ctx)
{
   ci.getPreprocessorOpts().addRemappedFile(
      mainName, llvm::MemoryBuffer::getMemBufferCopy(
                   llvm::StringRef(d.source ? d.source : "", d.source ? d.source_size : 0),
                   mainName)
                   .release());
   ci.getPreprocessorOpts().RetainRemappedFileBuffers = false;
   BoundedEmitAction action(&ctx);
   bool ok = ci.ExecuteAction(action);
   std::unique_ptr<llvm::Module> m = action.takeModule();
   ci.clearOutputFiles(false);
   if (!ok || !m || ci.getDiagnostics().hasErrorOccurred())
      return nullptr;
   return m;
}

// The flat work-group size clang's OpenCL front end gives a kernel without
// reqd_work_group_size or amdgpu_flat_work_group_size (CodeGen/Targets/AMDGPU.cpp), and what
// ilFrontHalf gives an IL kernel alike.
constexpr const char *kDefaultFlatWorkGroupSize = "1,256";

// The front half of an IL program: the SPIR-V module (specialized) through Khronos'
// translator, then retargeted to amdgcn (comp_spirv_llvm.cpp) and given the attributes
// clang's OpenCL front end gives every function and kernel: convergent (a function may hold
// a barrier), the build's defaults (target CPU and features, denormal and fast-math modes),
// -cl-opt-disable's optnone, and for kernels the flat work-group size bound (the
// reqd_work_group_size product, else clang's OpenCL default of 256; the wide variant's
// larger bound is set later, in backHalf, for IL and OpenCL C alike) and
// whether work-groups are uniform (only with -cl-uniform-work-group-size: OpenCL 3.0 IL
// programs may launch non-uniform work-groups). nullptr with the reason in the log.
std::unique_ptr<llvm::Module>
ilFrontHalf(clang::CompilerInstance &ci, const comp_build_desc &d, const Globals &g,
            const comp__options &o, llvm::LLVMContext &ctx, llvm::raw_ostream &logOS,
            comp_status &st)
{
   void *bc = nullptr;
   size_t bcSize = 0;
   char *tlog = nullptr;
   st = comp__spirv_translate(d.il, d.il_size, d.spec_constants, d.num_spec_constants, &bc,
                              &bcSize, &tlog);
   if (st != COMP_OK) {
      logOS << (tlog ? tlog : "error: out of memory translating the SPIR-V module\n");
      free(tlog);
      return nullptr;
   }
   auto parsed = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(static_cast<const char *>(bc), bcSize),
                            "spirv-module"),
      ctx);
   free(bc);
   st = COMP_BUILD_FAILURE;
   if (!parsed) {
      logOS << "error: the SPIR-V translator's bitcode does not load: "
            << llvm::toString(parsed.takeError()) << "\n";
      return nullptr;
   }
   std::unique_ptr<llvm::Module> m = compRetargetSpir(**parsed, g.dataLayout, logOS);
   if (!m)
      return nullptr;
   // The translator writes no "Debug Info Version" flag into a module without debug
   // information; an object of clCompileProgram read back by clLinkProgram would then be
   // stripped with a warning in the link log ("ignoring debug info with an invalid version
   // (0)"). comp_spirv.c removed the module's debug information: the flag says so.
   if (!m->getModuleFlag("Debug Info Version"))
      m->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
   // OpFDiv of 32-bit floats needs 2.5 ulp, or correct rounding under
   // -cl-fp32-correctly-rounded-divide-sqrt (OpenCL 3.0 SPIR-V environment §7.4, as OpenCL C
   // 3.0 §7.4 for `/`); the translator writes a plain fdiv, which LLVM rounds correctly. The
   // accuracy goes on as clang puts it on OpenCL C's `/`, so that a division gives the same
   // bits from SPIR-V as from source.
   llvm::MDNode *fdivAccuracy =
      o.correctly_rounded_sqrt
         ? nullptr
         : llvm::MDNode::get(ctx, llvm::ConstantAsMetadata::get(
                                     llvm::ConstantFP::get(llvm::Type::getFloatTy(ctx), 2.5)));
   for (llvm::Function &f : *m) {
      if (f.isDeclaration() || f.isIntrinsic())
         continue;
      if (fdivAccuracy)
         for (llvm::BasicBlock &bb : f)
            for (llvm::Instruction &i : bb)
               if (i.getOpcode() == llvm::Instruction::FDiv &&
                   i.getType()->getScalarType()->isFloatTy() &&
                   !i.getMetadata(llvm::LLVMContext::MD_fpmath))
                  i.setMetadata(llvm::LLVMContext::MD_fpmath, fdivAccuracy);
      f.addFnAttr(llvm::Attribute::Convergent);
      if (o.opt_disable) {
         f.addFnAttr(llvm::Attribute::OptimizeNone);
         f.addFnAttr(llvm::Attribute::NoInline);
      }
      if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL) {
         uint64_t size = 0;
         if (llvm::MDNode *md = f.getMetadata("reqd_work_group_size");
             md && md->getNumOperands() == 3) {
            size = 1;
            for (const llvm::MDOperand &op : md->operands())
               if (auto *c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(op))
                  size *= c->getZExtValue();
         }
         std::string bound = size ? std::to_string(size) + "," + std::to_string(size)
                                  : std::string(kDefaultFlatWorkGroupSize);
         f.addFnAttr("amdgpu-flat-work-group-size", bound);
         f.addFnAttr("uniform-work-group-size", o.uniform_work_group_size ? "true" : "false");
         f.addFnAttr(llvm::Attribute::NoRecurse);
      }
      clang::CodeGen::mergeDefaultFunctionDefinitionAttributes(
         f, ci.getCodeGenOpts(), ci.getLangOpts(), ci.getTargetOpts(),
         /*WillInternalize=*/false);
   }
   std::string verify;
   llvm::raw_string_ostream vos(verify);
   if (llvm::verifyModule(*m, &vos)) {
      logOS << "error: internal: the retargeted SPIR-V module is not valid LLVM IR: "
            << vos.str() << "\n";
      st = COMP_INTERNAL_ERROR;
      return nullptr;
   }
   st = COMP_OK;
   return m;
}

// The prefix of the body function of a kernel that is called like a function (as clang 20
// names it; OpenCL C 3.0 §6.9 allows calling a kernel from a kernel).
constexpr const char *kKernelBodyPrefix = "__clang_ocl_kern_imp_";

// Kernel attributes that describe a launch, not code: a body called from several kernels
// must not keep the work-group size bounds of one of them (AMDGPUAttributor derives the
// callee's from all its callers).
constexpr const char *kLaunchAttributes[] = {
   "amdgpu-flat-work-group-size", "amdgpu-waves-per-eu", "amdgpu-max-num-workgroups",
   "uniform-work-group-size",
};

// LLVM 19's AMDGPU backend cannot call a function with the amdgpu_kernel calling convention
// ("LLVM ERROR: Unsupported calling convention for call"), and the frontend emits such a
// call for every kernel called from a kernel (at -O0, or wherever the inliner leaves it).
// Runs on the whole program (a build's module, or a link's joined objects, where an
// `extern kernel` declared in one object resolved to its definition in another): every
// kernel that is called gets an ordinary function holding its body, internal, named
// kKernelBodyPrefix + name; the kernel becomes a wrapper that calls it, keeping its name,
// calling convention, attributes and metadata (so the kernel's signature does not change);
// every call of the kernel calls the body instead. Kernels nobody calls are untouched.
// A called kernel defined nowhere is an error in the log (false).
bool
splitCalledKernels(llvm::Module &m, llvm::raw_ostream &logOS)
{
   std::vector<llvm::Function *> called;
   for (llvm::Function &f : m) {
      if (f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
         continue;
      for (llvm::User *u : f.users())
         if (auto *cb = llvm::dyn_cast<llvm::CallBase>(u); cb && cb->getCalledOperand() == &f) {
            called.push_back(&f);
            break;
         }
   }
   bool ok = true;
   for (llvm::Function *k : called) {
      if (k->isDeclaration()) {
         logOS << "error: kernel '" << k->getName() << "' is called but not defined\n";
         ok = false;
         continue;
      }
      llvm::LLVMContext &ctx = m.getContext();
      llvm::Function *body =
         llvm::Function::Create(k->getFunctionType(), llvm::GlobalValue::InternalLinkage,
                                k->getAddressSpace(), kKernelBodyPrefix + k->getName(), &m);
      body->setCallingConv(llvm::CallingConv::C);
      body->setAttributes(k->getAttributes());
      for (const char *a : kLaunchAttributes)
         body->removeFnAttr(a);
      body->setDSOLocal(true);
      body->splice(body->end(), k);
      for (auto [from, to] : llvm::zip(k->args(), body->args())) {
         to.takeName(&from);
         from.replaceAllUsesWith(&to);
      }
      // Debug info: the body keeps the kernel's subprogram (its instructions are scoped to
      // it); the wrapper gets a distinct copy, so that the call and whatever is inlined into
      // the wrapper have a scope in their own function.
      llvm::DILocation *callLoc = nullptr;
      if (llvm::DISubprogram *sp = k->getSubprogram()) {
         body->setSubprogram(sp);
         auto *copy = llvm::MDNode::replaceWithDistinct(sp->clone());
         k->setSubprogram(copy);
         callLoc = llvm::DILocation::get(ctx, sp->getLine(), 0, copy);
      }

      llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx, "entry", k));
      std::vector<llvm::Value *> args;
      for (llvm::Argument &a : k->args())
         args.push_back(&a);
      llvm::CallInst *call = b.CreateCall(body, args);
      call->setCallingConv(llvm::CallingConv::C);
      if (callLoc)
         call->setDebugLoc(callLoc);
      b.CreateRetVoid();

      std::vector<llvm::CallBase *> calls;
      for (llvm::User *u : k->users())
         if (auto *cb = llvm::dyn_cast<llvm::CallBase>(u); cb && cb->getCalledOperand() == k)
            calls.push_back(cb);
      for (llvm::CallBase *cb : calls) {
         cb->setCalledOperand(body);
         cb->setCallingConv(llvm::CallingConv::C);
      }
   }
   return ok;
}

// One device library (or the overrides), shared by every build of the process: loaded
// lazily into its own LLVMContext, and only the functions builds need are materialized.
// A build asks for the definitions its module still lacks (the roots); the library answers
// with bitcode of a module holding their closure (what they reference, transitively:
// functions, variables, aliases; declarations for the rest) and the library's named
// metadata, which the build parses into its own context and links as it would have linked
// the whole library (llvm::Linker links the same definitions from either). The answer is
// cached per root set: programs of one application mostly need the same builtins. Cost per
// build: proportional to what the program uses, not to the library's 12,000 functions.
class DeviceLib {
public:
   explicit DeviceLib(llvm::MemoryBufferRef bytes) : bytes_(bytes) {}

   // The subset for `rootNames` (the names of `m`'s declarations), as bitcode; null with
   // `error` set if the library is malformed, an empty string if it defines none of them.
   std::shared_ptr<const std::string>
   subset(const std::vector<std::string> &rootNames, std::string &error)
   {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!load(error))
         return nullptr;
      std::vector<unsigned> roots;
      for (const std::string &name : rootNames) {
         llvm::GlobalValue *gv = mod_->getNamedValue(name);
         if (gv && !gv->isDeclaration())
            roots.push_back(position_.lookup(gv));
      }
      roots.insert(roots.end(), appending_.begin(), appending_.end());
      if (roots.empty())
         return std::make_shared<const std::string>();
      std::sort(roots.begin(), roots.end());
      roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
      auto hit = cache_.find(roots);
      if (hit != cache_.end())
         return hit->second;
      auto bc = std::make_shared<const std::string>(extract(roots, error));
      if (!error.empty())
         return nullptr;
      // Bounded: dropped whole when full (a process building very different programs
      // re-extracts, which is cheap).
      if (cacheBytes_ + bc->size() > kCacheLimit) {
         cache_.clear();
         cacheBytes_ = 0;
      }
      cacheBytes_ += bc->size();
      cache_.emplace(std::move(roots), bc);
      return bc;
   }

private:
   static constexpr size_t kCacheLimit = 64u << 20;

   bool
   load(std::string &error)
   {
      if (mod_)
         return true;
      auto lazy = llvm::getLazyBitcodeModule(bytes_, ctx_);
      if (!lazy) {
         error = "device library " + bytes_.getBufferIdentifier().str() + ": " +
                 llvm::toString(lazy.takeError());
         return false;
      }
      mod_ = std::move(*lazy);
      for (llvm::GlobalValue &gv : mod_->global_values()) {
         position_[&gv] = globals_.size();
         globals_.push_back(&gv);
         if (gv.hasAppendingLinkage())
            appending_.push_back(globals_.size() - 1);
      }
      deps_.resize(globals_.size());
      depsKnown_.resize(globals_.size());
      return true;
   }

   // The globals `gv`'s definition references (materializing its body first).
   const std::vector<unsigned> &
   deps(unsigned id, std::string &error)
   {
      if (depsKnown_[id])
         return deps_[id];
      depsKnown_[id] = true;
      llvm::GlobalValue *gv = globals_[id];
      if (llvm::Error e = gv->materialize()) {
         error = "device library " + bytes_.getBufferIdentifier().str() + ": " +
                 llvm::toString(std::move(e));
         return deps_[id];
      }
      llvm::SmallPtrSet<const llvm::Constant *, 32> seen;
      std::vector<unsigned> &out = deps_[id];
      auto addConstant = [&](auto &self, const llvm::Constant *c) -> void {
         if (!seen.insert(c).second)
            return;
         if (auto *g = llvm::dyn_cast<llvm::GlobalValue>(c)) {
            auto it = position_.find(g);
            if (it != position_.end())
               out.push_back(it->second);
            return;
         }
         for (const llvm::Value *op : c->operands())
            if (auto *oc = llvm::dyn_cast<llvm::Constant>(op))
               self(self, oc);
      };
      if (auto *f = llvm::dyn_cast<llvm::Function>(gv)) {
         for (const llvm::BasicBlock &bb : *f)
            for (const llvm::Instruction &i : bb)
               for (const llvm::Value *op : i.operands())
                  if (auto *c = llvm::dyn_cast<llvm::Constant>(op))
                     addConstant(addConstant, c);
         for (unsigned k = 0; k < 3; k++) {
            const llvm::Constant *c = k == 0   ? (f->hasPersonalityFn() ? f->getPersonalityFn()
                                                                        : nullptr)
                                      : k == 1 ? (f->hasPrefixData() ? f->getPrefixData()
                                                                     : nullptr)
                                               : (f->hasPrologueData() ? f->getPrologueData()
                                                                       : nullptr);
            if (c)
               addConstant(addConstant, c);
         }
      } else if (auto *v = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
         if (v->hasInitializer())
            addConstant(addConstant, v->getInitializer());
      } else if (auto *a = llvm::dyn_cast<llvm::GlobalAlias>(gv)) {
         addConstant(addConstant, a->getAliasee());
      }
      return out;
   }

   // Bitcode of the closure of `roots` (ids, sorted). Sets `error` on failure.
   std::string
   extract(const std::vector<unsigned> &roots, std::string &error)
   {
      std::vector<bool> inClosure(globals_.size()), referenced(globals_.size());
      std::vector<unsigned> work(roots.begin(), roots.end());
      for (unsigned id : roots)
         inClosure[id] = true;
      while (!work.empty()) {
         unsigned id = work.back();
         work.pop_back();
         for (unsigned d : deps(id, error)) {
            referenced[d] = true;
            if (!inClosure[d] && !globals_[d]->isDeclaration()) {
               inClosure[d] = true;
               work.push_back(d);
            }
         }
         if (!error.empty())
            return {};
      }

      llvm::Module sub(mod_->getModuleIdentifier(), ctx_);
      sub.setDataLayout(mod_->getDataLayout());
      sub.setTargetTriple(mod_->getTargetTriple());
      for (llvm::NamedMDNode &nmd : mod_->named_metadata()) {
         llvm::NamedMDNode *copy = sub.getOrInsertNamedMetadata(nmd.getName());
         for (llvm::MDNode *op : nmd.operands())
            copy->addOperand(op);
      }
      // The libraries carry no "Debug Info Version" flag. Reading a module without one,
      // the bitcode reader strips its debug info and warns "ignoring debug info with an
      // invalid version (0)" as soon as stripping changes anything (the loop metadata of
      // ocml's functions is rebuilt), which put two warnings in every build log. The
      // subset declares the version this LLVM writes: it has no debug info to be wrong.
      if (!sub.getModuleFlag("Debug Info Version"))
         sub.addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                           llvm::DEBUG_METADATA_VERSION);
      llvm::ValueToValueMapTy vmap;
      // In library order: globals first, so that the module reads like the library's.
      for (unsigned id = 0; id < globals_.size(); id++) {
         if (!inClosure[id] && !referenced[id])
            continue;
         llvm::GlobalValue *gv = globals_[id];
         bool define = inClosure[id];
         llvm::GlobalValue::LinkageTypes linkage =
            define ? gv->getLinkage() : llvm::GlobalValue::ExternalLinkage;
         if (!define && gv->hasExternalWeakLinkage())
            linkage = gv->getLinkage();
         llvm::GlobalValue *ngv;
         if (auto *f = llvm::dyn_cast<llvm::Function>(gv)) {
            auto *nf = llvm::Function::Create(f->getFunctionType(), linkage,
                                              f->getAddressSpace(), f->getName(), &sub);
            nf->copyAttributesFrom(f);
            ngv = nf;
         } else if (auto *v = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
            auto *nv = new llvm::GlobalVariable(sub, v->getValueType(), v->isConstant(),
                                                linkage, nullptr, v->getName(), nullptr,
                                                v->getThreadLocalMode(),
                                                v->getAddressSpace());
            nv->copyAttributesFrom(v);
            ngv = nv;
         } else if (auto *a = llvm::dyn_cast<llvm::GlobalAlias>(gv)) {
            // Always a definition (an alias has an aliasee, which its deps put in the
            // closure): in the closure whenever referenced.
            auto *na = llvm::GlobalAlias::create(a->getValueType(), a->getAddressSpace(),
                                                 a->getLinkage(), a->getName(), &sub);
            na->copyAttributesFrom(a);
            ngv = na;
         } else {
            error = "device library " + bytes_.getBufferIdentifier().str() +
                    ": unsupported global kind of '" + gv->getName().str() + "'";
            return {};
         }
         if (!define && !llvm::isa<llvm::GlobalAlias>(ngv))
            ngv->setVisibility(gv->getVisibility());
         vmap[gv] = ngv;
      }
      for (unsigned id = 0; id < globals_.size(); id++) {
         if (!inClosure[id])
            continue;
         llvm::GlobalValue *gv = globals_[id];
         if (auto *f = llvm::dyn_cast<llvm::Function>(gv)) {
            auto *nf = llvm::cast<llvm::Function>(vmap[f]);
            auto dst = nf->arg_begin();
            for (const llvm::Argument &arg : f->args()) {
               dst->setName(arg.getName());
               vmap[&arg] = &*dst++;
            }
            llvm::SmallVector<llvm::ReturnInst *, 8> returns;
            llvm::CloneFunctionInto(nf, f, vmap,
                                    llvm::CloneFunctionChangeType::DifferentModule, returns);
            nf->setLinkage(f->getLinkage());
         } else if (auto *v = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
            auto *nv = llvm::cast<llvm::GlobalVariable>(vmap[v]);
            if (v->hasInitializer())
               nv->setInitializer(llvm::MapValue(v->getInitializer(), vmap));
            llvm::SmallVector<std::pair<unsigned, llvm::MDNode *>, 1> mds;
            v->getAllMetadata(mds);
            for (auto &[kind, md] : mds)
               nv->addMetadata(kind, *llvm::MapMetadata(md, vmap));
         } else if (auto *a = llvm::dyn_cast<llvm::GlobalAlias>(gv)) {
            llvm::cast<llvm::GlobalAlias>(vmap[a])->setAliasee(
               llvm::MapValue(a->getAliasee(), vmap));
         }
      }
      llvm::SmallVector<char, 0> bc;
      llvm::raw_svector_ostream os(bc);
      llvm::WriteBitcodeToFile(sub, os);
      return std::string(bc.data(), bc.size());
   }

   llvm::MemoryBufferRef bytes_;
   std::mutex mutex_; // guards everything below: the context is not thread-safe
   llvm::LLVMContext ctx_;
   std::unique_ptr<llvm::Module> mod_;
   std::vector<llvm::GlobalValue *> globals_;
   llvm::DenseMap<const llvm::GlobalValue *, unsigned> position_;
   std::vector<unsigned> appending_;
   std::vector<std::vector<unsigned>> deps_;
   std::vector<bool> depsKnown_;
   std::map<std::vector<unsigned>, std::shared_ptr<const std::string>> cache_;
   size_t cacheBytes_ = 0;
};

// The overrides and the three device libraries, created on first use (a process that only
// hits the kernel cache never parses them). Never destroyed.
DeviceLib *g_deviceLibs[4];
std::once_flag g_deviceLibsOnce;

DeviceLib **
deviceLibs(const Globals &g)
{
   std::call_once(g_deviceLibsOnce, [&g] {
      g_deviceLibs[0] = new DeviceLib(llvm::MemoryBufferRef(
         llvm::StringRef(reinterpret_cast<const char *>(comp_builtins_bc),
                         comp_builtins_bc_size),
         kBuiltinsName));
      for (size_t i = 0; i < 3; i++)
         g_deviceLibs[i + 1] = new DeviceLib(g.libs[i]->getMemBufferRef());
   });
   return g_deviceLibs;
}

// Links the device libraries into `m` as clang's -mlink-builtin-bitcode does
// (BackendConsumer::LinkInModules): only what is still undefined linked (DeviceLib::subset,
// then llvm::Linker with LinkOnlyNeeded), the build's default function attributes merged
// into every function linked, and what was linked internalized. Order: overrides (the
// mangled OpenCL builtins they redefine then resolve to them, not to opencl.bc), opencl,
// ocml, overrides again (for __ockl_get_local_linear_id, referenced only by what opencl.bc
// brought in), ockl, oclc.
bool
linkDeviceLibs(clang::CompilerInstance &ci, const Globals &g, const Target &t,
               const comp__options &o, bool daz, llvm::Module &m, llvm::raw_ostream &logOS)
{
   llvm::LLVMContext &ctx = m.getContext();
   DeviceLib **libs = deviceLibs(g);
   DeviceLib *const order[] = { libs[0], libs[1], libs[2], libs[0], libs[3] };
   for (size_t i = 0; i <= std::size(order); i++) {
      std::unique_ptr<llvm::Module> lib;
      if (i < std::size(order)) {
         std::vector<std::string> roots;
         for (const llvm::GlobalValue &gv : m.global_values())
            if (gv.isDeclaration() && gv.hasName() && !gv.getName().starts_with("llvm."))
               roots.push_back(gv.getName().str());
         std::string error;
         std::shared_ptr<const std::string> bc = order[i]->subset(roots, error);
         if (!bc) {
            logOS << "error: " << error << "\n";
            return false;
         }
         if (bc->empty())
            continue;
         auto parsed = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(*bc, "hsacl-device-library"), ctx);
         if (!parsed) {
            logOS << "error: device library subset: " << llvm::toString(parsed.takeError())
                  << "\n";
            return false;
         }
         lib = std::move(*parsed);
      } else {
         lib = std::make_unique<llvm::Module>("hsacl-oclc", ctx);
         fillControlModule(*lib, g.dataLayout, t, o, daz);
      }
      llvm::SmallPtrSet<const llvm::Function *, 32> had;
      for (const llvm::Function &f : m)
         if (!f.isDeclaration())
            had.insert(&f);
      bool failed = llvm::Linker::linkModules(
         m, std::move(lib), llvm::Linker::Flags::LinkOnlyNeeded,
         [](llvm::Module &mod, const llvm::StringSet<> &linked) {
            llvm::internalizeModule(mod, [&linked](const llvm::GlobalValue &gv) {
               return !gv.hasName() || linked.count(gv.getName()) == 0;
            });
         });
      if (failed) {
         logOS << "error: linking device library " << i << " failed\n";
         return false;
      }
      for (llvm::Function &f : m)
         if (!f.isDeclaration() && !f.isIntrinsic() && !had.count(&f))
            clang::CodeGen::mergeDefaultFunctionDefinitionAttributes(
               f, ci.getCodeGenOpts(), ci.getLangOpts(), ci.getTargetOpts(),
               /*WillInternalize=*/true);
   }
   return true;
}

comp_status
copyOut(llvm::StringRef bytes, bool text, comp_output &out)
{
   out.data = malloc(bytes.size() + (text ? 1 : 0));
   if (!out.data)
      return COMP_OUT_OF_MEMORY;
   memcpy(out.data, bytes.data(), bytes.size());
   if (text)
      static_cast<char *>(out.data)[bytes.size()] = 0;
   out.size = bytes.size();
   return COMP_OK;
}

// A compiled object or library (COMP_EMIT_BITCODE): `m` as bitcode, carrying the compile
// options of every object in it and the -enable-link-options marker.
comp_status
emitBitcode(llvm::Module &m, const std::vector<std::string> &objectOptions, bool linkOptions,
            comp_output &out)
{
   llvm::LLVMContext &ctx = m.getContext();
   llvm::NamedMDNode *md = m.getOrInsertNamedMetadata(kOptionsMD);
   for (const std::string &s : objectOptions)
      md->addOperand(llvm::MDTuple::get(ctx, { llvm::MDString::get(ctx, s) }));
   if (linkOptions)
      m.getOrInsertNamedMetadata(kLinkOptionsMD)
         ->addOperand(llvm::MDTuple::get(ctx, { llvm::MDString::get(ctx, "1") }));
   llvm::SmallVector<char, 0> bc;
   llvm::raw_svector_ostream os(bc);
   llvm::WriteBitcodeToFile(m, os);
   return copyOut(llvm::StringRef(bc.data(), bc.size()), false, out);
}

// comp_build_desc::max_work_group_size: every kernel definition still at the default bound
// (no reqd_work_group_size metadata, no bound of its own) is built for 1..max instead.
// Before optimisation, as the front end sets it: AMDGPUAttributor propagates the kernels'
// bounds to their callees, and the register budget follows from it.
void
setMaxWorkGroupSize(llvm::Module &m, unsigned max)
{
   const std::string bound = "1," + std::to_string(max);
   for (llvm::Function &f : m) {
      if (f.isDeclaration() || f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL ||
          f.getMetadata("reqd_work_group_size"))
         continue;
      llvm::Attribute a = f.getFnAttribute("amdgpu-flat-work-group-size");
      if (a.isValid() && a.getValueAsString() != kDefaultFlatWorkGroupSize)
         continue;
      f.addFnAttr("amdgpu-flat-work-group-size", bound);
   }
}

// The back half, shared by clBuildProgram (after frontHalf) and clLinkProgram (after
// linkInputs): device libraries, optimisation and codegen with the options of `ci`
// (EmitBackendOutput), then lld and the metadata for an executable. `maxWorkGroupSize`:
// comp_build_desc::max_work_group_size.
comp_status
backHalf(clang::CompilerInstance &ci, const Globals &g, const Target &t, const comp__options &o,
         bool daz, llvm::Module &m, comp_emit emit, unsigned maxWorkGroupSize, comp_output &out,
         llvm::raw_ostream &logOS, bool &llvmError)
{
   // clang's BackendConsumer swaps the context's handler during the frontend and may not
   // restore it on every path: install ours again.
   m.getContext().setDiagnosticHandler(std::make_unique<LogDiagnosticHandler>(logOS, llvmError));
   if (maxWorkGroupSize)
      setMaxWorkGroupSize(m, maxWorkGroupSize);
   if (!splitCalledKernels(m, logOS))
      return COMP_BUILD_FAILURE;
   if (!linkDeviceLibs(ci, g, t, o, daz, m, logOS) || llvmError)
      return COMP_INTERNAL_ERROR;
   // After linking: a cycle may pass through a device-library function the program
   // redefines or calls back (the libraries themselves have none).
   if (!compCheckNoRecursion(m, kKernelBodyPrefix, logOS))
      return COMP_BUILD_FAILURE;

   clang::BackendAction action = emit == COMP_EMIT_ASM    ? clang::Backend_EmitAssembly
                                 : emit == COMP_EMIT_LLVM ? clang::Backend_EmitLL
                                                          : clang::Backend_EmitObj;
   ci.getCodeGenOpts().DisableLLVMPasses = false;
   llvm::SmallVector<char, 0> objBuf;
   // The TextDiagnosticPrinter only reports between BeginSourceFile and EndSourceFile.
   ci.getDiagnosticClient().BeginSourceFile(ci.getLangOpts(), nullptr);
   clang::EmitBackendOutput(ci.getDiagnostics(), ci.getHeaderSearchOpts(), ci.getCodeGenOpts(),
                            ci.getTargetOpts(), ci.getLangOpts(), m.getDataLayoutStr(), &m,
                            action, ci.getFileManager().getVirtualFileSystemPtr(),
                            std::make_unique<llvm::raw_svector_ostream>(objBuf));
   ci.getDiagnosticClient().EndSourceFile();
   if (ci.getDiagnostics().hasErrorOccurred() || llvmError)
      return COMP_BUILD_FAILURE;

   std::string image;
   llvm::StringRef result(objBuf.data(), objBuf.size());
   if (emit == COMP_EMIT_EXECUTABLE) {
      comp_status st = linkExecutable(result, image, logOS);
      if (st != COMP_OK)
         return st;
      result = image;
   }
   comp_status st = copyOut(result, emit == COMP_EMIT_ASM || emit == COMP_EMIT_LLVM, out);
   if (st != COMP_OK || emit != COMP_EMIT_EXECUTABLE)
      return st;
   char *err = nullptr;
   st = comp_parse_metadata(out.data, out.size, &out.info, &err);
   if (st != COMP_OK) {
      logOS << "error: code object metadata: " << (err ? err : "?") << "\n";
      free(err);
   }
   return st;
}

// Joins the inputs of a link (compiled objects and libraries, bitcode) into one module with
// llvm::Linker: every symbol, a second definition of one is an error in the log. Collects
// the compile options of every object they hold and whether the link options may apply to
// every input (OpenCL 3.0 API 5.8.7.2: to compiled objects, and to libraries only if they
// were created with -enable-link-options).
comp_status
linkInputs(const comp_build_desc &d, llvm::LLVMContext &ctx, std::unique_ptr<llvm::Module> &m,
           std::vector<std::string> &objectOptions, bool &linkOptionsApply,
           llvm::raw_ostream &logOS, const bool &llvmError)
{
   linkOptionsApply = true;
   if (!d.num_inputs) {
      logOS << "error: nothing to link\n";
      return COMP_LINK_FAILURE;
   }
   for (size_t i = 0; i < d.num_inputs; i++) {
      const comp_link_input &in = d.inputs[i];
      std::string name = "input " + std::to_string(i);
      auto parsed = llvm::parseBitcodeFile(
         llvm::MemoryBufferRef(
            llvm::StringRef(static_cast<const char *>(in.data), in.data ? in.size : 0), name),
         ctx);
      if (!parsed) {
         logOS << "error: " << name << ": not LLVM bitcode: "
               << llvm::toString(parsed.takeError()) << "\n";
         return COMP_LINK_FAILURE;
      }
      std::unique_ptr<llvm::Module> mod = std::move(*parsed);
      if (llvm::NamedMDNode *md = mod->getNamedMetadata(kOptionsMD)) {
         for (const llvm::MDNode *n : md->operands())
            if (n->getNumOperands() == 1)
               if (auto *s = llvm::dyn_cast<llvm::MDString>(n->getOperand(0)))
                  objectOptions.push_back(s->getString().str());
         mod->eraseNamedMetadata(md);
      }
      bool enabled = false;
      if (llvm::NamedMDNode *md = mod->getNamedMetadata(kLinkOptionsMD)) {
         enabled = true;
         mod->eraseNamedMetadata(md);
      }
      if (in.is_library && !enabled)
         linkOptionsApply = false;
      if (!m) {
         m = std::move(mod);
      } else if (llvm::Linker::linkModules(*m, std::move(mod)) || llvmError) {
         logOS << "error: cannot link " << name << "\n";
         return COMP_LINK_FAILURE;
      }
   }
   return COMP_OK;
}

// The options the back half of a link runs with. A relaxation (-cl-denorms-are-zero,
// -cl-finite-math-only, -cl-unsafe-math-optimizations, -cl-no-signed-zeros, -cl-mad-enable,
// -cl-fast-relaxed-math) holds when every compiled object was compiled with it, or when the
// link asks for it and may apply it to every input; -cl-opt-disable only when every object
// had it; -cl-fp32-correctly-rounded-divide-sqrt and -g when any object had them. They decide
// how the device libraries are linked (their attributes, the oclc_* constants) and the
// pipeline; what the frontend put in each object's functions stays.
comp_status
linkOptions(const std::vector<std::string> &objectOptions, const comp__options &link,
            bool linkApplies, comp__options &eff, llvm::raw_ostream &logOS)
{
   memset(&eff, 0, sizeof(eff));
   eff.cl_std = 120;
   eff.denorms_are_zero = eff.finite_math_only = eff.unsafe_math = eff.no_signed_zeros =
      eff.mad_enable = eff.fast_relaxed_math = eff.opt_disable = true;
   std::vector<std::string> all = objectOptions;
   if (all.empty())
      all.push_back(""); // bitcode without hsacl's metadata: default options
   for (size_t i = 0; i < all.size(); i++) {
      comp__options o;
      char *err = nullptr;
      comp_status st = comp__options_parse(all[i].c_str(), COMP_ACTION_COMPILE, &o, &err);
      if (st != COMP_OK) {
         logOS << "error: compile options of object " << i << ": " << (err ? err : "?")
               << "\n";
         free(err);
         return st == COMP_OUT_OF_MEMORY ? st : COMP_LINK_FAILURE;
      }
      eff.cl_std = std::max(eff.cl_std, o.cl_std);
      eff.denorms_are_zero &= o.denorms_are_zero;
      eff.finite_math_only &= o.finite_math_only;
      eff.unsafe_math &= o.unsafe_math;
      eff.no_signed_zeros &= o.no_signed_zeros;
      eff.mad_enable &= o.mad_enable;
      eff.fast_relaxed_math &= o.fast_relaxed_math;
      eff.opt_disable &= o.opt_disable;
      eff.correctly_rounded_sqrt |= o.correctly_rounded_sqrt;
      eff.debug_info |= o.debug_info;
      comp__options_finish(&o);
   }
   if (linkApplies) {
      eff.denorms_are_zero |= link.denorms_are_zero;
      eff.finite_math_only |= link.finite_math_only;
      eff.unsafe_math |= link.unsafe_math;
      eff.no_signed_zeros |= link.no_signed_zeros;
      eff.mad_enable |= link.mad_enable;
      eff.fast_relaxed_math |= link.fast_relaxed_math;
      eff.no_subgroup_ifp |= link.no_subgroup_ifp;
   }
   return COMP_OK;
}

comp_status
buildImpl(const comp_build_desc &d, comp_output &out, std::string &log)
{
   llvm::raw_string_ostream logOS(log);
   comp__options opts;
   char *optError = nullptr;
   comp_status st = comp__options_parse(d.options, d.action, &opts, &optError);
   if (st != COMP_OK) {
      logOS << "error: " << (optError ? optError : "invalid options") << "\n";
      free(optError);
      return st;
   }
   struct OptsGuard {
      comp__options &o;
      ~OptsGuard() { comp__options_finish(&o); }
   } optsGuard{ opts };

   // API spec 5.8.6.5: -cl-std=CLx.y fails to compile for a device whose
   // CL_DEVICE_OPENCL_C_ALL_VERSIONS lacks x.y (2.0 §5.8.4.5: a version above
   // CL_DEVICE_OPENCL_C_VERSION). The device supports 1.0-1.2, and 2.0 (pipes and
   // device-side enqueue) when the platform reports 2.0 or later, 3.0 when it reports 3.0 or
   // later, 3.1 when it reports 3.1.
   if (d.opencl_version && d.action != COMP_ACTION_LINK && opts.cl_std >= 200 &&
       d.opencl_version < opts.cl_std) {
      logOS << "error: -cl-std=CL" << opts.cl_std / 100 << "." << opts.cl_std / 10 % 10
            << ": the device does not support OpenCL C " << opts.cl_std / 100 << "."
            << opts.cl_std / 10 % 10 << " (it supports 1.0, 1.1, 1.2"
            << (d.opencl_version >= 310   ? ", 2.0, 3.0 and 3.1"
                : d.opencl_version >= 300 ? ", 2.0 and 3.0"
                : d.opencl_version >= 200 ? " and 2.0"
                                          : "")
            << ")\n";
      return COMP_BUILD_FAILURE;
   }

   Target t;
   std::string why;
   if (!parseTarget(d.target_id, t, why)) {
      logOS << "error: " << why << "\n";
      return COMP_INVALID_TARGET;
   }

   Globals &g = globals();
   if (!g.libError.empty()) {
      logOS << "error: " << g.libError << "\n";
      return COMP_INTERNAL_ERROR;
   }

   // Declared before every module: it owns them.
   llvm::LLVMContext ctx;
   bool llvmError = false;
   ctx.setDiagnosticHandler(std::make_unique<LogDiagnosticHandler>(logOS, llvmError));
   std::unique_ptr<llvm::Module> m;

   comp__options linked;
   const comp__options *o = &opts;
   if (d.action == COMP_ACTION_LINK) {
      std::vector<std::string> objectOptions;
      bool linkApplies;
      st = linkInputs(d, ctx, m, objectOptions, linkApplies, logOS, llvmError);
      if (st != COMP_OK)
         return st;
      if (opts.create_library)
         return emitBitcode(*m, objectOptions, opts.enable_link_options, out);
      st = linkOptions(objectOptions, opts, linkApplies, linked, logOS);
      if (st != COMP_OK)
         return st;
      o = &linked;
   }

   const BuildLimits limits = buildLimits();
   uint64_t sourceBytes = (d.source ? d.source_size : 0) + (d.il ? d.il_size : 0);
   for (size_t i = 0; i < d.num_headers; i++)
      sourceBytes += d.headers[i].source ? d.headers[i].size : 0;
   if (sourceBytes > limits.maxSource) {
      logOS << "error: the program's source and headers are " << sourceBytes
            << " bytes, more than the " << limits.maxSource
            << " a build accepts (HSACL_BUILD_MAX_SOURCE)\n";
      return COMP_BUILD_FAILURE;
   }
   const bool daz = o->denorms_are_zero || t.defaultDaz;
   const char *mainName = d.source_name && *d.source_name ? d.source_name : "input.cl";
   std::vector<std::string> args = cc1Args(d, t, *o, daz, mainName);

   // Per-build in-memory files over the real filesystem: the embedded headers.
   auto mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
   for (size_t i = 0; i < d.num_headers; i++) {
      const comp_header &h = d.headers[i];
      if (!h.name || !*h.name || h.name[0] == '/') {
         logOS << "error: invalid embedded header name '" << (h.name ? h.name : "") << "'\n";
         return COMP_BUILD_FAILURE;
      }
      mem->addFile(std::string(kVirtualHeaders) + "/" + h.name, 0,
                   llvm::MemoryBuffer::getMemBufferCopy(
                      llvm::StringRef(h.source ? h.source : "", h.source ? h.size : 0),
                      h.name));
   }
   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> real =
      compIncludeFiles(llvm::vfs::getRealFileSystem(), limits.maxSource,
                       { HSACL_CLANG_RESOURCE_DIR }, logOS);
   if (d.restrict_includes) {
      std::vector<std::string> dirs, roots{ HSACL_CLANG_RESOURCE_DIR };
      for (size_t i = 0; i < o->num_pp_args; i++)
         if (!strncmp(o->pp_args[i], "-I", 2))
            dirs.emplace_back(o->pp_args[i] + 2);
      if (!compIncludeRoots(dirs, roots, logOS))
         return COMP_BUILD_FAILURE;
      real = compIncludeJail(real, roots, kVirtualHeaders);
   }
   real = compIncludeRecorder(real, { HSACL_CLANG_RESOURCE_DIR }, kVirtualHeaders,
                              &out.reads_files);
   auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(real);
   overlay->pushOverlay(mem);

   clang::CompilerInstance ci;
   if (!setupInstance(ci, args, overlay, logOS))
      return COMP_INTERNAL_ERROR;
   if (d.action != COMP_ACTION_LINK && d.il) {
      m = ilFrontHalf(ci, d, g, *o, ctx, logOS, st);
      if (!m)
         return st;
   } else if (d.action != COMP_ACTION_LINK) {
      m = frontHalf(ci, d, mainName, ctx);
      if (!m)
         return COMP_BUILD_FAILURE;
   }
   // clCompileProgram: a cycle inside the object fails here; one across objects, at the
   // link (backHalf).
   if (d.action != COMP_ACTION_LINK && d.emit == COMP_EMIT_BITCODE)
      return compCheckNoRecursion(*m, "", logOS)
                ? emitBitcode(*m, { d.options ? d.options : "" }, false, out)
                : COMP_BUILD_FAILURE;
   uint64_t kernels = 0;
   for (const llvm::Function &f : *m)
      kernels += !f.isDeclaration() && (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL ||
                                        f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL);
   if (kernels > limits.maxKernels) {
      logOS << "error: the program has " << kernels << " kernels, more than the "
            << limits.maxKernels << " a build accepts (HSACL_BUILD_MAX_KERNELS)\n";
      return COMP_BUILD_FAILURE;
   }
   return backHalf(ci, g, t, *o, daz, *m, d.emit == COMP_EMIT_BITCODE ? COMP_EMIT_EXECUTABLE
                                                                        : d.emit,
                   d.max_work_group_size, out, logOS, llvmError);
}

enum comp_status buildTrapped(const struct comp_build_desc *desc, struct comp_output *out);

// A thread with a kBuildStackBytes stack of its own (see t_stackLimit), or none when the
// address space cannot be reserved (an RLIMIT_AS): the build then runs on the caller's
// thread without the stack check.
struct BuildStack {
   const comp_build_desc *desc;
   comp_output *out;
   comp_status status;
   size_t bytes;
};

void *
buildStackMain(void *arg)
{
   auto *b = static_cast<BuildStack *>(arg);
   char *here = static_cast<char *>(__builtin_frame_address(0));
   t_stackLimit = (uintptr_t)(here - b->bytes + b->bytes / 16);
   b->status = buildTrapped(b->desc, b->out);
   t_stackLimit = 0;
   return nullptr;
}

} // namespace

extern "C" enum comp_status
comp_build(const struct comp_build_desc *desc, struct comp_output *out)
{
   const size_t guard = 64 << 10, bytes = buildStackBytes();
   void *stack = mmap(nullptr, bytes + guard, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
   if (stack == MAP_FAILED)
      return buildTrapped(desc, out);
   BuildStack b = { desc, out, COMP_INTERNAL_ERROR, bytes };
   pthread_attr_t attr;
   pthread_t t;
   bool ran = false;
   if (mprotect(stack, guard, PROT_NONE) == 0 && pthread_attr_init(&attr) == 0) {
      if (pthread_attr_setstack(&attr, static_cast<char *>(stack) + guard, bytes) == 0 &&
          pthread_create(&t, &attr, buildStackMain, &b) == 0) {
         pthread_join(t, nullptr);
         ran = true;
      }
      pthread_attr_destroy(&attr);
   }
   munmap(stack, bytes + guard);
   return ran ? b.status : buildTrapped(desc, out);
}

namespace {

enum comp_status
buildTrapped(const struct comp_build_desc *desc, struct comp_output *out)
{
   memset(out, 0, sizeof(*out));
   std::string log;
   globals(); // installs the fatal-error handler
   comp_status st = COMP_BUILD_FAILURE;
   // Both are read after a longjmp: they live in memory (their addresses escape), and
   // nothing between setjmp and the jump changes them in registers only.
   FatalTrap trap;
   llvm::CrashRecoveryContext crc;
   bool finished = crc.RunSafely([&] {
      if (setjmp(trap.jump) == 0) {
         t_fatalTrap = &trap;
         st = buildImpl(*desc, *out, log);
      } else {
         log += "error: LLVM fatal error: " + trap.reason +
                "\nerror: the build was abandoned\n";
         st = COMP_BUILD_FAILURE;
      }
      t_fatalTrap = nullptr;
   });
   if (!finished) {
      // Only with HSACL_CRASH_RECOVERY (CrashRecoveryContext::Enable): a signal in clang or
      // LLVM. The build is abandoned as after a fatal error.
      t_fatalTrap = nullptr;
      log += "error: internal compiler error: the compiler crashed (signal " +
             std::to_string(crc.RetCode - 128) + "); the build was abandoned\n";
      st = COMP_BUILD_FAILURE;
   }
   if (st != COMP_OK) {
      comp_program_info_destroy(out->info);
      free(out->data);
      out->info = nullptr;
      out->data = nullptr;
      out->size = 0;
   }
   out->log = dupString(log);
   if (!out->log && st == COMP_OK) {
      comp_output_finish(out);
      return COMP_OUT_OF_MEMORY;
   }
   return st;
}

} // namespace

extern "C" enum comp_status
comp__control_module_text(const char *target_id, const char *options, char **text)
{
   *text = nullptr;
   Target t;
   std::string why;
   if (!parseTarget(target_id, t, why))
      return COMP_INVALID_TARGET;
   comp__options o;
   comp_status st = comp__options_parse(options, COMP_ACTION_BUILD, &o, nullptr);
   if (st != COMP_OK)
      return st;
   llvm::LLVMContext ctx;
   llvm::Module m("hsacl-oclc", ctx);
   fillControlModule(m, "", t, o, o.denorms_are_zero || t.defaultDaz);
   comp__options_finish(&o);
   std::string ir;
   llvm::raw_string_ostream os(ir);
   m.print(os, nullptr);
   os.flush();
   *text = dupString(ir);
   return *text ? COMP_OK : COMP_OUT_OF_MEMORY;
}

extern "C" void
comp_output_finish(struct comp_output *out)
{
   free(out->data);
   free(out->log);
   comp_program_info_destroy(out->info);
   memset(out, 0, sizeof(*out));
}

extern "C" const char *
comp_identity(void)
{
   return globals().identity.c_str();
}

extern "C" unsigned
comp_target_wavefront_size(const char *target_id)
{
   Target t;
   std::string why;
   if (!parseTarget(target_id, t, why))
      return 0;
   return t.wave64 ? 64 : 32;
}

extern "C" const char *
comp_status_name(enum comp_status status)
{
   switch (status) {
   case COMP_OK:
      return "COMP_OK";
   case COMP_INVALID_BUILD_OPTIONS:
      return "COMP_INVALID_BUILD_OPTIONS";
   case COMP_INVALID_COMPILER_OPTIONS:
      return "COMP_INVALID_COMPILER_OPTIONS";
   case COMP_INVALID_LINKER_OPTIONS:
      return "COMP_INVALID_LINKER_OPTIONS";
   case COMP_BUILD_FAILURE:
      return "COMP_BUILD_FAILURE";
   case COMP_LINK_FAILURE:
      return "COMP_LINK_FAILURE";
   case COMP_INVALID_TARGET:
      return "COMP_INVALID_TARGET";
   case COMP_INVALID_BINARY:
      return "COMP_INVALID_BINARY";
   case COMP_OUT_OF_MEMORY:
      return "COMP_OUT_OF_MEMORY";
   case COMP_INTERNAL_ERROR:
      return "COMP_INTERNAL_ERROR";
   }
   return "COMP_UNKNOWN_STATUS";
}
