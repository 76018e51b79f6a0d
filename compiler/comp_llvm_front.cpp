// comp_llvm_front.cpp — the front half of a build: the clang -cc1 invocation (cc1Args, built
// the way clang's driver builds it for `-x cl -target amdgcn-amd-amdhsa`), the compiler
// instance with hsacl's passes and diagnostics into the build log (setupInstance), the build's
// bounds on source, tokens and macro expansions, and the two front halves: OpenCL C through
// clang to unoptimised IR (frontHalf), SPIR-V through the translator (ilFrontHalf). The build
// and its back half are in comp_llvm.cpp; the file header there says what runs where.

#include "comp_llvm_priv.h"

#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Scalar/SCCP.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

#include <cstdlib>
#include <cstring>
#include <ctime>

#ifndef HSACL_CLANG_RESOURCE_DIR
#error "HSACL_CLANG_RESOURCE_DIR must be defined by the build"
#endif

using namespace comp;

namespace {

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
   case 310: // clang-19 has no CL3.1: cc1TailArgs maps it onto CL3.0 (see there)
      return "-cl-std=CL3.0";
   default:
      return "-cl-std=CL1.2";
   }
}

// The fixed part of the cc1 vector and the target: what the front end stops at (unoptimised
// IR: -disable-llvm-passes; optimisation level and every codegen option stay in the
// invocation for the back half, which clears the flag), code generation defaults as clang's
// driver sets them, the processor and its features.
void
cc1BaseArgs(std::vector<std::string> &a, const Target &t, const comp__options &o, bool daz,
            const char *mainName)
{
   a = {
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
}

// The application's options: preprocessor arguments, the embedded headers' folder, the
// language version, the optimisation level and the -cl-* flags.
void
cc1OptionArgs(std::vector<std::string> &a, const comp_build_desc &d, const comp__options &o)
{
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
}

// The macros one enabled extension or feature `name` needs besides -cl-ext (into `defines`).
void
extensionDefines(const char *name, const comp__options &o, std::vector<std::string> &defines)
{
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
   // cl_ext_float_atomics and cl_khr_kernel_clock, which clang-19 knows only from
   // opencl-c-base.h too; their features are needed before OpenCL C 3.0 as well (where the
   // rule above does not apply): the built-ins are declared from these macros. The float
   // atomics build on OpenCL C 2.0's; the clock built-ins need nothing, and a program built
   // without -cl-std (OpenCL C 1.2) has them too.
   if (o.cl_std >= 200 && (!strcmp(name, "cl_ext_float_atomics") ||
                           (o.cl_std < 300 && !strncmp(name, "__opencl_c_ext_fp", 17))))
      defines.push_back(std::string("-D") + name + "=1");
   if (!strcmp(name, "cl_khr_kernel_clock") ||
       (o.cl_std < 300 && !strncmp(name, "__opencl_c_kernel_clock_", 24)))
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
}

// -cl-ext=-all,+<every extension and feature of the device>, so that clang defines exactly
// the macros of what the device reports, then the macros clang does not define itself.
void
cc1ExtensionArgs(std::vector<std::string> &a, const comp_build_desc &d, const comp__options &o)
{
   if (!d.extensions)
      return;
   std::string ext = "-cl-ext=-all";
   std::vector<std::string> defines;
   auto enable = [&](const char *name) {
      ext += std::string(",+") + name;
      extensionDefines(name, o, defines);
   };
   for (const char *const *e = d.extensions; *e; e++)
      enable(*e);
   for (const char *const *f = d.features; f && *f; f++)
      enable(*f);
   a.push_back(ext);
   a.insert(a.end(), defines.begin(), defines.end());
}

// The version macros and the tail: the default header, clang's driver defaults, the input.
void
cc1TailArgs(std::vector<std::string> &a, const comp_build_desc &d, const comp__options &o,
            const char *mainName)
{
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
}

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

// The build's deadline (HSACL_BUILD_TIMEOUT seconds from setupInstance, default 60; 0 lifts
// it). LLVM's optimiser is superlinear in the size of one function: at -O3, clang-19 took
// 33 s on a chain of 10,000 conditional operators, 48 s on a switch of 5,000 cases and
// 100 s on a chain of 5,000 `a == i ? x : ...` (SimplifyCFG), without the front end
// noticing anything unusual, and no bound on source, tokens or nesting separates these from
// large legitimate programs. Past the deadline every optional pass is skipped (LLVM's
// should-run-optional-pass hook, as optnone does), so the pipeline runs out in the time of
// the pass under way, and the build fails with a log line (DeadlineReportPass); the token
// watcher stops a front end still parsing through the fatal-error trap. Builds run one per
// thread (comp_build), so the deadline is thread-local.
thread_local int64_t t_deadlineMs;  // CLOCK_MONOTONIC milliseconds; 0: no deadline
thread_local bool t_deadlinePassed; // sticky once seen

int64_t
monotonicMs()
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

uint64_t
buildTimeoutSeconds()
{
   uint64_t s = limitFromEnv("HSACL_BUILD_TIMEOUT", 60);
   return s > uint64_t(INT64_MAX / 1000) / 2 ? 0 : s; // a huge value lifts it, as 0 does
}

void
startDeadline()
{
   uint64_t s = buildTimeoutSeconds();
   t_deadlineMs = s ? monotonicMs() + int64_t(s) * 1000 : 0;
   t_deadlinePassed = false;
}

bool
deadlinePassed()
{
   if (!t_deadlinePassed && t_deadlineMs && monotonicMs() > t_deadlineMs)
      t_deadlinePassed = true;
   return t_deadlinePassed;
}

// Last in the optimisation pipeline, required (it runs when optional passes are skipped):
// a build past its deadline fails here, through the context's diagnostic handler (the
// build log and llvmError, which backHalf checks after code generation). Code generation
// still follows, and is itself superlinear in a function's size (instruction selection,
// register coalescing, structurization): the functions' bodies are dropped first (they
// become declarations), since the build's result is discarded anyway.
struct DeadlineReportPass : llvm::PassInfoMixin<DeadlineReportPass> {
   llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
   {
      if (!deadlinePassed())
         return llvm::PreservedAnalyses::all();
      m.getContext().emitError(llvm::Twine("the build exceeded its time limit of ") +
                               llvm::Twine(buildTimeoutSeconds()) +
                               " s (HSACL_BUILD_TIMEOUT): the optimiser's time grows faster "
                               "than the size of a function; split large functions or raise "
                               "the limit");
      for (llvm::Function &f : m)
         if (!f.isDeclaration())
            f.deleteBody();
      return llvm::PreservedAnalyses::none();
   }
   static bool isRequired() { return true; }
};

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
      clang::Preprocessor &pp = ci.getPreprocessor();
      auto refuser = std::make_unique<PragmaDebugRefuser>(pp);
      PragmaDebugRefuser *debugPragmas = refuser.get(); // owned by the preprocessor
      pp.addPPCallbacks(std::move(refuser));
      uint64_t limit = buildLimits().maxTokens;
      // Every token lexed, at every level: the arguments of a function-like macro are
      // pre-expanded inside the preprocessor (a macro doubling its argument 40 times grew
      // past 23 GB there without one token reaching a level-0 watcher); the words of a
      // pragma too. The watcher also stops a parse whose recursion nears the end of the
      // build's stack (t_stackLimit).
      pp.setPreprocessToken(true);
      pp.setTokenWatcher([limit, debugPragmas, n = uint64_t(0)](const clang::Token &tok) mutable {
         if (++n > limit)
            llvm::report_fatal_error(llvm::Twine("the preprocessed program exceeds ") +
                                     llvm::Twine(limit) +
                                     " tokens (HSACL_BUILD_MAX_TOKENS)", false);
         if (stackNearlyExhausted())
            llvm::report_fatal_error("the program nests too deeply for the compiler's stack",
                                     false);
         if (n % 65536 == 0 && deadlinePassed())
            llvm::report_fatal_error(llvm::Twine("the build exceeded its time limit of ") +
                                     llvm::Twine(buildTimeoutSeconds()) +
                                     " s in the front end (HSACL_BUILD_TIMEOUT)", false);
         debugPragmas->watch(tok);
      });
      if (limit != UINT64_MAX)
         pp.addPPCallbacks(std::make_unique<ExpansionCounter>(limit));
      return true;
   }

 private:
   // `#pragma clang __debug <command>` is clang's own test hook: crash, stack overflow,
   // fatal errors (which -disable-pragma-debug-crash makes do nothing), and dumps of
   // declarations, macros, diagnostic mappings and modules written to the process's
   // standard error, not to the build log (dump, macro, diag_mapping, module_map, modules).
   // No program has a use for it. Clang's handler must not run at all, so it is refused
   // before clang looks it up: a pragma's words are lexed one by one after PragmaDirective
   // (also for _Pragma, also inside macros); when they are `clang __debug`, the second word
   // gets an error and becomes a token no handler knows (clang then ignores the pragma).
   class PragmaDebugRefuser : public clang::PPCallbacks {
    public:
      explicit PragmaDebugRefuser(clang::Preprocessor &pp)
         : pp_(pp),
           id_(pp.getDiagnostics().getCustomDiagID(clang::DiagnosticsEngine::Error,
                                                   "'#pragma clang __debug' is not accepted: "
                                                   "it is clang's debugging hook, not "
                                                   "OpenCL C"))
      {
      }
      void PragmaDirective(clang::SourceLocation, clang::PragmaIntroducerKind) override
      {
         state_ = kNamespace;
      }
      // Sees every token lexed (the token watcher); `tok` is the preprocessor's own token
      // (not a const object), about to be handed to the pragma's reader.
      void watch(const clang::Token &tok)
      {
         if (state_ == kNone)
            return;
         const clang::IdentifierInfo *ii = tok.getIdentifierInfo();
         if (state_ == kNamespace) {
            state_ = ii && ii->isStr("clang") ? kCommand : kNone;
            return;
         }
         state_ = kNone;
         if (!ii || !ii->isStr("__debug"))
            return;
         pp_.getDiagnostics().Report(tok.getLocation(), id_);
         // An unknown token names no handler. (Not a new identifier: IdentifierTable::get
         // would instantiate LLVM's BumpPtrAllocator here, and in the sanitizer builds
         // this file's instrumented copy, which poisons new slabs, would replace the one
         // lld's uninstrumented code relies on: use-after-poison in fuzz_binary.)
         clang::Token &t = const_cast<clang::Token &>(tok);
         t.setKind(clang::tok::unknown);
         t.setIdentifierInfo(nullptr);
      }

    private:
      enum { kNone, kNamespace, kCommand } state_ = kNone;
      clang::Preprocessor &pp_;
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

} // namespace

namespace comp {

// The cc1 argument vector clang-19's driver produces for
//   clang -x cl -target amdgcn-amd-amdhsa -mcpu=<cpu> -mcode-object-version=5 <options>
// with the ROCm device libraries (ROCMToolChain::addClangTargetOptions).
std::vector<std::string>
cc1Args(const comp_build_desc &d, const Target &t, const comp__options &o, bool daz,
        const char *mainName)
{
   std::vector<std::string> a;
   cc1BaseArgs(a, t, o, daz, mainName);
   cc1OptionArgs(a, d, o);
   cc1ExtensionArgs(a, d, o);
   cc1TailArgs(a, d, o, mainName);
   return a;
}

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
   startDeadline();
   ci.getCodeGenOpts().PassBuilderCallbacks.push_back([](llvm::PassBuilder &pb) {
      if (llvm::PassInstrumentationCallbacks *pic = pb.getPassInstrumentationCallbacks())
         pic->registerShouldRunOptionalPassCallback(
            [](llvm::StringRef, llvm::Any) { return !deadlinePassed(); });
      pb.registerPipelineStartEPCallback(
         [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
            mpm.addPass(PrintfStubPass());
            compAddEarlyPasses(mpm);
         });
      // -cl-opt-disable: user functions are optnone, which the pass manager skips, but the
      // device-library functions are not. Their __oclc_ISA_version and
      // __oclc_wavefrontsize64 branches must still fold away, or code for other targets (GFX9
      // DPP row broadcasts in the ockl wave scans) reaches instruction selection on GFX10+
      // and fails ("Invalid dpp_ctrl value"), as it does with clang-19's driver. Runs at the
      // optimiser's end, after the printf binding has used __printf_alloc, and before hsacl's
      // late passes, whose check of dropped device-library functions must see the folded call
      // tree; the build deadline's report comes last.
      pb.registerOptimizerLastEPCallback(
         [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel level) {
            if (level == llvm::OptimizationLevel::O0) {
               llvm::FunctionPassManager fpm;
               fpm.addPass(llvm::SCCPPass());
               fpm.addPass(llvm::SimplifyCFGPass());
               mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
               mpm.addPass(llvm::GlobalDCEPass());
            }
            compAddLatePasses(mpm);
            mpm.addPass(DeadlineReportPass());
         });
   });
   ci.createDiagnostics(new clang::TextDiagnosticPrinter(logOS, &ci.getDiagnosticOpts()), true);
   ci.setVerboseOutputStream(logOS);
   ci.createFileManager(fs);
   return true;
}

BuildLimits
buildLimits()
{
   return { limitFromEnv("HSACL_BUILD_MAX_SOURCE", 64ull << 20),
            limitFromEnv("HSACL_BUILD_MAX_TOKENS", 8ull << 20),
            limitFromEnv("HSACL_BUILD_MAX_KERNELS", 16384) };
}

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
   std::string layoutError;
   const std::string *layout = deviceLibLayout(g, layoutError);
   if (!layout) {
      logOS << "error: " << layoutError << "\n";
      st = COMP_INTERNAL_ERROR;
      return nullptr;
   }
   std::unique_ptr<llvm::Module> m = compRetargetSpir(**parsed, *layout, logOS);
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

} // namespace comp
