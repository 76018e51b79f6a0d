// comp_llvm.cpp — OpenCL C -> amdgcn code object, in process.
//
// The build (comp_engine_build, buildImpl; the driver reaches it through comp_build,
// comp_engine.c) and its back half; the clang invocation and the front
// halves are in comp_llvm_front.cpp, the device libraries in comp_llvm_libs.cpp (shared
// declarations: comp_llvm_priv.h).
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
// is no per-thread one): on a thread inside comp_engine_build it records the message and
// longjmps back to comp_engine_build, which returns COMP_BUILD_FAILURE with the message in
// the log; on any other thread it does what LLVM does without a handler (message on stderr,
// then LLVM ends the process). The abandoned build's frames are not unwound: what it had allocated is
// leaked (its LLVMContext included, which may be referenced by value handles on those
// frames, so it must not be destroyed), and nothing of it is touched again. lld runs with
// the trap off (it has its own recovery, and the trap would leave g_lld_mutex held).
// Crashes (SIGSEGV, ... inside clang/LLVM) are caught only with HSACL_CRASH_RECOVERY=1:
// llvm::CrashRecoveryContext::Enable installs process-wide signal handlers that replace the
// application's, and re-raise a signal from a thread outside a build without its siginfo
// (which breaks runtimes that rely on SIGSEGV, such as JVMs), so a library cannot do it
// behind the application's back.

#include "comp_builtins.h"
#include "comp_engine.h"
#include "comp_llvm_priv.h"

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

#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

LLD_HAS_DRIVER(elf)

using namespace comp;

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

constexpr const char *kDeviceLibNames[] = { "opencl.bc", "ocml.bc", "ockl.bc" };

// Named metadata of compiled objects and libraries (COMP_EMIT_BITCODE): one string operand
// per compiled object with its clCompileProgram options (a library carries those of every
// object it holds), and, on a library created with -enable-link-options, the marker that
// link options may change it.
constexpr const char *kOptionsMD = "hsacl.compile_options";
constexpr const char *kLinkOptionsMD = "hsacl.enable_link_options";

std::once_flag g_once;
Globals *g_globals;
std::mutex g_lld_mutex;
bool g_lld_unusable; // lld reported it cannot run again in this process; under g_lld_mutex

// Where a fatal LLVM error on this thread goes: set by comp_engine_build around a build, cleared by
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
   for (size_t i = 0; i < 3; i++) {
      std::string path = g->libDir + "/" + kDeviceLibNames[i];
      auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                             /*RequiresNullTerminator=*/false);
      if (!buf) {
         g->libError = "cannot read device library " + path + ": " + buf.getError().message();
         break;
      }
      g->libs[i] = std::move(*buf);
   }
   g_globals = g;
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

} // namespace

namespace comp {

bool
stackNearlyExhausted()
{
   return t_stackLimit && (uintptr_t)__builtin_frame_address(0) < t_stackLimit;
}

Globals &
globals()
{
   std::call_once(g_once, initGlobals);
   return *g_globals;
}

} // namespace comp

namespace {

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
   if (emit == COMP_EMIT_EXECUTABLE)
      markWorkGroupFree(m);
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

// API spec 5.8.6.5: -cl-std=CLx.y fails to compile for a device whose
// CL_DEVICE_OPENCL_C_ALL_VERSIONS lacks x.y (2.0 §5.8.4.5: a version above
// CL_DEVICE_OPENCL_C_VERSION). The device supports 1.0-1.2, and 2.0 (pipes and device-side
// enqueue) when the platform reports 2.0 or later, 3.0 when it reports 3.0 or later, 3.1 when
// it reports 3.1. False with the reason in the log.
bool
languageVersionSupported(const comp_build_desc &d, const comp__options &opts,
                         llvm::raw_ostream &logOS)
{
   if (!d.opencl_version || d.action == COMP_ACTION_LINK || opts.cl_std < 200 ||
       d.opencl_version >= opts.cl_std)
      return true;
   logOS << "error: -cl-std=CL" << opts.cl_std / 100 << "." << opts.cl_std / 10 % 10
         << ": the device does not support OpenCL C " << opts.cl_std / 100 << "."
         << opts.cl_std / 10 % 10 << " (it supports 1.0, 1.1, 1.2"
         << (d.opencl_version >= 310   ? ", 2.0, 3.0 and 3.1"
             : d.opencl_version >= 300 ? ", 2.0 and 3.0"
             : d.opencl_version >= 200 ? " and 2.0"
                                       : "")
         << ")\n";
   return false;
}

// The bound on source and embedded header bytes (HSACL_BUILD_MAX_SOURCE).
bool
sourceWithinBound(const comp_build_desc &d, const BuildLimits &limits, llvm::raw_ostream &logOS)
{
   uint64_t sourceBytes = (d.source ? d.source_size : 0) + (d.il ? d.il_size : 0);
   for (size_t i = 0; i < d.num_headers; i++)
      sourceBytes += d.headers[i].source ? d.headers[i].size : 0;
   if (sourceBytes <= limits.maxSource)
      return true;
   logOS << "error: the program's source and headers are " << sourceBytes
         << " bytes, more than the " << limits.maxSource
         << " a build accepts (HSACL_BUILD_MAX_SOURCE)\n";
   return false;
}

// The bound on kernels in one program (HSACL_BUILD_MAX_KERNELS).
bool
kernelsWithinBound(const llvm::Module &m, const BuildLimits &limits, llvm::raw_ostream &logOS)
{
   uint64_t kernels = 0;
   for (const llvm::Function &f : m)
      kernels += !f.isDeclaration() && (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL ||
                                        f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL);
   if (kernels <= limits.maxKernels)
      return true;
   logOS << "error: the program has " << kernels << " kernels, more than the "
         << limits.maxKernels << " a build accepts (HSACL_BUILD_MAX_KERNELS)\n";
   return false;
}

// The files a build sees: the embedded headers in memory over the real file system, whose
// files are bounded in size, jailed to the build's -I folders under restricted includes, and
// recorded (out.reads_files: a build that read a file is not cached). nullptr with the reason
// in the log.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
buildFileSystem(const comp_build_desc &d, const comp__options &o, const BuildLimits &limits,
                comp_output &out, llvm::raw_ostream &logOS)
{
   auto mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
   for (size_t i = 0; i < d.num_headers; i++) {
      const comp_header &h = d.headers[i];
      if (!h.name || !*h.name || h.name[0] == '/') {
         logOS << "error: invalid embedded header name '" << (h.name ? h.name : "") << "'\n";
         return nullptr;
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
      for (size_t i = 0; i < o.num_pp_args; i++)
         if (!strncmp(o.pp_args[i], "-I", 2))
            dirs.emplace_back(o.pp_args[i] + 2);
      if (!compIncludeRoots(dirs, roots, logOS))
         return nullptr;
      real = compIncludeJail(real, roots, kVirtualHeaders);
   }
   real = compIncludeRecorder(real, { HSACL_CLANG_RESOURCE_DIR }, kVirtualHeaders,
                              &out.reads_files);
   auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(real);
   overlay->pushOverlay(mem);
   return overlay;
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
   if (!languageVersionSupported(d, opts, logOS))
      return COMP_BUILD_FAILURE;

   Target t;
   std::string why;
   if (!parseTarget(d.target_id, t, why)) {
      logOS << "error: " << why << "\n";
      return COMP_INVALID_TARGET;
   }

   Globals &g = globals();
   std::string libError = g.libError;
   if (libError.empty())
      deviceLibLayout(g, libError);
   if (!libError.empty()) {
      logOS << "error: " << libError << "\n";
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
   if (!sourceWithinBound(d, limits, logOS))
      return COMP_BUILD_FAILURE;
   const bool daz = o->denorms_are_zero || t.defaultDaz;
   const char *mainName = d.source_name && *d.source_name ? d.source_name : "input.cl";
   std::vector<std::string> args = cc1Args(d, t, *o, daz, mainName);
   llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs =
      buildFileSystem(d, *o, limits, out, logOS);
   if (!fs)
      return COMP_BUILD_FAILURE;

   clang::CompilerInstance ci;
   if (!setupInstance(ci, args, fs, logOS))
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
   if (!kernelsWithinBound(*m, limits, logOS))
      return COMP_BUILD_FAILURE;
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
comp_engine_build(const struct comp_build_desc *desc, struct comp_output *out)
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

extern "C" unsigned
comp_target_wavefront_size(const char *target_id)
{
   Target t;
   std::string why;
   if (!parseTarget(target_id, t, why))
      return 0;
   return t.wave64 ? 64 : 32;
}

