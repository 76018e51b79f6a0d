// comp_passes.cpp — LLVM IR passes of hsacl's own that run in every build's optimisation
// pipeline (registered by comp_llvm.cpp's setupInstance).
//
// Dynamic extracts (LLVM 19 AMDGPU miscompile). `extractelement (load <N x T> p), %i` with a
// non-constant %i: SelectionDAG's combiner turns it into a load of the one element, whose
// memory operand no longer knows its IR pointer, and AMDGPU takes a memory operand without a
// pointer for a uniform one, so a divergent address becomes v_readfirstlane + s_load and
// every lane of the wave reads lane 0's element. It happens for loads from constant memory,
// for global loads AMDGPUPromoteKernelArguments marked amdgpu.noclobber, and for vector
// kernel arguments (AMDGPULowerKernelArguments turns each into a load from the kernarg
// segment): `kernel void k(uint4 v, ...) { o[i] = v[i & 3]; }` stores v[0] everywhere. clang-19
// itself does the same; upstream fixed it after LLVM 19 (llvm-project#168980, #170309). A
// freeze between a loaded vector and its dynamic extracts hides the load from the combine:
// the vector is loaded whole and selected by its own divergence, and the extract becomes
// per-lane. A kernel argument is lowered to its kernarg load inside SelectionDAG, where a
// freeze does not survive: there the extract becomes a chain of selects on the index over the
// vector's constant-index elements (at most 16), which involves no load at all. Found by the CTS
// spirv_new op_vector_int4_extract and by cl_khr_subgroup_ballot's bit_extract of a by-value uint4
// (the ballot family was left unreported because of it).
//
// printf's %A and %F (LLVM 19 AMDGPU). AMDGPUPrintfRuntimeBinding (early simplification) finds
// a printf's conversions by the letters "cdieEfgGaosuxXp" only: an argument converted by %A or
// %F is neither stored in the printf buffer nor given a size in amdhsa.printf ("2:1:A=%A" has
// no size at all, which the metadata reader rejects), and the arguments after it shift.
// PrintfUpperConversions (pipeline start, before the binding) gives such a printf a copy of
// its format with those conversions in lower case (%a stores like %A; %f like %F, float
// demotion included), and remembers the pair in the named metadata hsacl.printf.upper;
// PrintfRestoreFormats (optimizer end, after the binding) puts the original format back into
// llvm.printf.fmts, so amdhsa.printf carries the user's format and the host prints upper case.
// Found by the CTS v2026 spirv_new extinst_printf_operands_scalar_fp32/fp64.
//
// printf's %s of a null pointer (issue #29). OpenCL C 3.0 §6.15.14 ("printf format string")
// lets %s convert only a literal string and leaves any other argument undefined, so
// `printf("%s", NULL)` has no meaning the specification gives. The binding stores the bytes
// of a constant string at compile time and, for any other argument, the string "???" (a
// string in device memory cannot reach the buffer). PrintfArguments (pipeline start,
// before the binding) gives a %s argument that is a null constant the literal "(null)"
// instead, which is what glibc and PoCL print for it, so a kernel moved between them prints
// the same; any other non-literal argument keeps "???", which no compile-time rewrite can
// improve on.
//
// printf's excess arguments. "If the format is exhausted while arguments remain, the excess
// arguments are evaluated (as always) but are otherwise ignored" (OpenCL C 3.0 §6.15.14).
// The binding counts every argument in amdhsa.printf ("1:2:4:%d\n" for printf("%d\n", 1,
// 2)) but gives sizes and buffer space only to those the format converts, so the entry has
// fewer sizes than its count and the metadata reader refused the code object ("malformed
// argument size"). PrintfArguments also drops the arguments past the format's last
// conversion from the call; the instructions computing them stay, so they are still
// evaluated.
//
// Recursion. OpenCL C does not support it (OpenCL C 3.0 §6.11 "Restrictions"); clang-19
// accepts it, and the kernel faults at run time: its private segment is sized for the call
// tree the code object reports, which a cycle makes unbounded. compCheckNoRecursion refuses
// a module whose direct call graph has a cycle, naming the functions on one cycle of each
// strongly connected component. Indirect calls (clang's __cl_clang_function_pointers) are
// not followed.
//
// Device-library functions code generation would drop (issue #25). The ROCm device libraries
// compile one body per instruction family and pick it per build from the oclc_* control
// constants: ockl's __ockl_sdot4 reads __oclc_ISA_version and, on every processor that is
// neither older than gfx906 nor gfx909 or gfx1010, calls an internal helper (unnamed in
// ockl.bc) carrying "target-features"="+dot1-insts" whose body is llvm.amdgcn.sdot4
// (V_DOT4_I32_I8); __ockl_memrealtime_u64 is one llvm.amdgcn.s.memrealtime carrying
// "+s-memrealtime". On a processor without the feature (gfx11 and gfx12 have neither
// instruction) nothing folds the call away, the inliner refuses the callee (AMDGPU's
// areInlineCompatible: a callee's features must be a subset of the caller's), and at the start
// of code generation AMDGPURemoveIncompatibleFunctions replaces every use of a function whose
// features the processor lacks with null and deletes it, saying so only in an optimisation
// remark (amdgpu-remove-incompatible-functions) nobody asked for: the call through null is
// undefined and the kernel comes out as s_endpgm, with an empty build log.
// DeviceLibOrigins (pipeline start, right after the device libraries are linked) gives each
// unnamed function the name of a named caller (metadata hsacl.origin), so that the error can
// name the library function the program called; DroppedFunctionCheck (optimizer end, after
// the ISA-version branches have folded) follows each kernel's calls and reports every function
// it reaches that needs a feature the kernel's processor (its target-cpu and target-features,
// as the backend's subtarget sees them) does not have, as a build error naming the kernel,
// the function, the feature and the processor. It compares whole feature sets, not names,
// so it covers every function of every library, and it costs one walk of each kernel's call
// tree. Functions a folded branch no longer reaches (the dot1 helper on gfx11 after
// hsacl's own dot products, every other processor's helper) are never looked at. Dropping is
// the only way a library call vanishes with these libraries: Debian's ROCm 5.2 ockl, ocml and
// opencl.bc pick no llvm.trap or unreachable body for any processor.
#include "comp_priv.h"

#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/Support/raw_ostream.h>

#include <llvm/IR/Constants.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>

#include <deque>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

struct FreezeDynamicExtracts : llvm::PassInfoMixin<FreezeDynamicExtracts> {
   // Runs on -cl-opt-disable's optnone functions too: the back end miscompiles them alike.
   static bool isRequired()
   {
      return true;
   }

   llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &)
   {
      bool changed = false;
      const bool kernel = f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL;
      llvm::DenseMap<llvm::Value *, llvm::FreezeInst *> frozen;
      std::vector<llvm::ExtractElementInst *> selects;
      for (llvm::BasicBlock &bb : f)
         for (llvm::Instruction &i : bb) {
            auto *x = llvm::dyn_cast<llvm::ExtractElementInst>(&i);
            if (!x || llvm::isa<llvm::Constant>(x->getIndexOperand()))
               continue;
            llvm::Value *v = x->getVectorOperand();
            if (auto *ld = llvm::dyn_cast<llvm::LoadInst>(v)) {
               llvm::FreezeInst *&fr = frozen[v];
               if (!fr)
                  fr = new llvm::FreezeInst(v, v->getName() + ".fr", ld->getNextNode());
               x->setOperand(0, fr);
               changed = true;
            } else if (kernel && llvm::isa<llvm::Argument>(v)) {
               selects.push_back(x);
            }
         }
      for (llvm::ExtractElementInst *x : selects) {
         auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(x->getVectorOperandType());
         if (!vt || vt->getNumElements() > 16)
            continue;
         llvm::IRBuilder<> b(x);
         llvm::Value *idx = x->getIndexOperand();
         unsigned n = vt->getNumElements();
         llvm::Value *r = b.CreateExtractElement(x->getVectorOperand(), b.getInt64(n - 1));
         for (unsigned k = n - 1; k-- > 0;) {
            llvm::Value *e = b.CreateExtractElement(x->getVectorOperand(), b.getInt64(k));
            llvm::Value *is = b.CreateICmpEQ(idx, llvm::ConstantInt::get(idx->getType(), k));
            r = b.CreateSelect(is, e, r);
         }
         x->replaceAllUsesWith(r);
         x->eraseFromParent();
         changed = true;
      }
      return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
   }
};

const char upperPairs[] = "hsacl.printf.upper";

// `fmt` with every %A and %F conversion in lower case (OpenCL C printf's syntax: flags, width,
// precision, vector specifier, length modifier, conversion; "%%" is no conversion).
std::string
lowerConversions(llvm::StringRef fmt)
{
   std::string out = fmt.str();
   for (size_t i = 0; i < out.size(); i++) {
      if (out[i] != '%')
         continue;
      size_t j = i + 1;
      if (j < out.size() && out[j] == '%') {
         i = j;
         continue;
      }
      while (j < out.size() && llvm::StringRef("-+ #0123456789.vhlzt").contains(out[j]))
         j++;
      if (j < out.size() && (out[j] == 'A' || out[j] == 'F'))
         out[j] = static_cast<char>(out[j] - 'A' + 'a');
      i = j;
   }
   return out;
}

// AMDGPUPrintfRuntimeBinding's escaping of a format in llvm.printf.fmts: control characters
// as C escapes, ':' (its field separator) as "\72".
std::string
escapeFormat(llvm::StringRef fmt)
{
   std::string out;
   for (char c : fmt) {
      switch (c) {
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\v': out += "\\v"; break;
      case ':': out += "\\72"; break;
      default: out += c; break;
      }
   }
   return out;
}

// The format of a printf call, or nullptr when it is not a constant C string (the binding
// then leaves the call alone as well).
llvm::ConstantDataArray *
printfFormat(llvm::CallInst *call)
{
   llvm::Value *op = call->getArgOperand(0);
   auto *gv = llvm::dyn_cast<llvm::GlobalVariable>(op->stripPointerCasts());
   if (!gv || !gv->hasInitializer() || gv->getType() != op->getType())
      return nullptr;
   auto *init = llvm::dyn_cast<llvm::ConstantDataArray>(gv->getInitializer());
   return init && init->isCString() ? init : nullptr;
}

// The printf calls of `m`.
std::vector<llvm::CallInst *>
printfCalls(llvm::Module &m)
{
   std::vector<llvm::CallInst *> calls;
   llvm::Function *printf = m.getFunction("printf");
   if (!printf)
      return calls;
   for (llvm::User *u : printf->users()) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(u);
      if (call && call->getCalledFunction() == printf && call->arg_size() >= 1)
         calls.push_back(call);
   }
   return calls;
}

// The conversion letters of `fmt` in order, one per argument it converts (OpenCL C printf has
// no '*', so each conversion takes exactly one).
std::string
conversionLetters(llvm::StringRef fmt)
{
   std::string convs;
   for (size_t i = 0; i < fmt.size(); i++) {
      if (fmt[i] != '%')
         continue;
      size_t j = i + 1;
      if (j < fmt.size() && fmt[j] == '%') {
         i = j;
         continue;
      }
      while (j < fmt.size() && llvm::StringRef("-+ #0123456789.vhlzt").contains(fmt[j]))
         j++;
      if (j < fmt.size())
         convs += fmt[j];
      i = j;
   }
   return convs;
}

struct PrintfArguments : llvm::PassInfoMixin<PrintfArguments> {
   static bool isRequired()
   {
      return true;
   }

   llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
   {
      llvm::GlobalVariable *null = nullptr;
      bool changed = false;
      for (llvm::CallInst *call : printfCalls(m)) {
         llvm::ConstantDataArray *fmt = printfFormat(call);
         if (!fmt)
            continue;
         std::string convs = conversionLetters(fmt->getAsCString());
         if (call->arg_size() > convs.size() + 1) {
            call = dropExcess(call, convs.size() + 1);
            changed = true;
         }
         for (size_t i = 0; i < convs.size() && i + 1 < call->arg_size(); i++) {
            llvm::Value *arg = call->getArgOperand(static_cast<unsigned>(i + 1));
            if (convs[i] != 's' || !llvm::isa<llvm::ConstantPointerNull>(arg->stripPointerCasts()))
               continue;
            if (!null)
               null = nullString(m, call);
            // A variadic argument may have any type: the literal's own constant pointer is
            // what a written "(null)" would pass.
            call->setArgOperand(static_cast<unsigned>(i + 1), null);
            changed = true;
         }
      }
      return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
   }

   // `call` with only its first `keep` arguments (the format and what it converts); the call
   // it replaces is erased.
   static llvm::CallInst *dropExcess(llvm::CallInst *call, size_t keep)
   {
      llvm::SmallVector<llvm::Value *, 8> args(call->arg_begin(), call->arg_begin() + keep);
      llvm::CallInst *c = llvm::CallInst::Create(call->getFunctionType(),
                                                 call->getCalledOperand(), args, "", call);
      llvm::AttributeList attrs = call->getAttributes();
      for (size_t i = keep; i < call->arg_size(); i++)
         attrs = attrs.removeParamAttributes(call->getContext(), static_cast<unsigned>(i));
      c->setAttributes(attrs);
      c->setCallingConv(call->getCallingConv());
      c->setTailCallKind(call->getTailCallKind());
      c->setDebugLoc(call->getDebugLoc());
      c->takeName(call);
      call->replaceAllUsesWith(c);
      call->eraseFromParent();
      return c;
   }

   // "(null)" as clang emits a string literal, in the format's (constant) address space.
   static llvm::GlobalVariable *nullString(llvm::Module &m, llvm::CallInst *call)
   {
      auto *data = llvm::ConstantDataArray::getString(m.getContext(), "(null)", true);
      unsigned as = call->getArgOperand(0)->getType()->getPointerAddressSpace();
      auto *gv = new llvm::GlobalVariable(m, data->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, data,
                                          ".str.hsacl.null", nullptr,
                                          llvm::GlobalValue::NotThreadLocal, as);
      gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
      gv->setAlignment(llvm::Align(1));
      return gv;
   }
};

struct PrintfUpperConversions : llvm::PassInfoMixin<PrintfUpperConversions> {
   static bool isRequired()
   {
      return true;
   }

   llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
   {
      llvm::LLVMContext &ctx = m.getContext();
      std::map<llvm::GlobalVariable *, llvm::GlobalVariable *> copies;
      bool changed = false;
      for (llvm::CallInst *call : printfCalls(m)) {
         llvm::ConstantDataArray *init = printfFormat(call);
         if (!init)
            continue;
         auto *gv = llvm::cast<llvm::GlobalVariable>(call->getArgOperand(0)->stripPointerCasts());
         llvm::StringRef fmt = init->getAsCString();
         std::string lower = lowerConversions(fmt);
         if (lower == fmt)
            continue;
         llvm::GlobalVariable *&copy = copies[gv];
         if (!copy) {
            auto *data = llvm::ConstantDataArray::getString(ctx, lower, true);
            copy = new llvm::GlobalVariable(m, data->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage, data,
                                            gv->getName() + ".lower", nullptr,
                                            llvm::GlobalValue::NotThreadLocal,
                                            gv->getAddressSpace());
            copy->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
            copy->setAlignment(gv->getAlign());
            llvm::Metadata *pair[] = { llvm::MDString::get(ctx, lower),
                                       llvm::MDString::get(ctx, fmt) };
            m.getOrInsertNamedMetadata(upperPairs)->addOperand(llvm::MDNode::get(ctx, pair));
         }
         call->setArgOperand(0, copy);
         changed = true;
      }
      return changed ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
   }
};

struct PrintfRestoreFormats : llvm::PassInfoMixin<PrintfRestoreFormats> {
   static bool isRequired()
   {
      return true;
   }

   llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
   {
      llvm::NamedMDNode *pairs = m.getNamedMetadata(upperPairs);
      if (!pairs)
         return llvm::PreservedAnalyses::all();
      std::map<std::string, std::string> original; // escaped lower-case -> escaped original
      for (llvm::MDNode *p : pairs->operands()) {
         auto *lower = p->getNumOperands() == 2
                          ? llvm::dyn_cast<llvm::MDString>(p->getOperand(0))
                          : nullptr;
         auto *orig = lower ? llvm::dyn_cast<llvm::MDString>(p->getOperand(1)) : nullptr;
         if (orig)
            original[escapeFormat(lower->getString())] = escapeFormat(orig->getString());
      }
      m.eraseNamedMetadata(pairs);
      llvm::NamedMDNode *fmts = m.getNamedMetadata("llvm.printf.fmts");
      for (unsigned i = 0; fmts && i < fmts->getNumOperands(); i++) {
         llvm::MDNode *e = fmts->getOperand(i);
         auto *str = e->getNumOperands() ? llvm::dyn_cast<llvm::MDString>(e->getOperand(0))
                                         : nullptr;
         if (!str)
            continue;
         // "id:N:sizes...:format"; the format holds no raw ':' (escaped), so it is what
         // follows the last one.
         llvm::StringRef s = str->getString();
         size_t colon = s.rfind(':');
         if (colon == llvm::StringRef::npos)
            continue;
         auto it = original.find(s.substr(colon + 1).str());
         if (it == original.end())
            continue;
         std::string fixed = s.substr(0, colon + 1).str() + it->second;
         fmts->setOperand(i, llvm::MDNode::get(m.getContext(),
                                               llvm::MDString::get(m.getContext(), fixed)));
      }
      return llvm::PreservedAnalyses::all();
   }
};

// The name a user wrote for `f`: demangled (overloadable functions), without `hidePrefix`
// (the body hsacl splits out of a kernel that is called).
std::string
sourceName(const llvm::Function &f, llvm::StringRef hidePrefix)
{
   llvm::StringRef n = f.getName();
   if (!hidePrefix.empty() && n.starts_with(hidePrefix))
      n = n.drop_front(hidePrefix.size());
   return llvm::demangle(n);
}

// One cycle through `scc`, as the functions from its first node back to it: a breadth-first
// search over the component's own call edges (the component is strongly connected, so the
// search always returns to the start).
std::vector<const llvm::Function *>
oneCycle(const std::vector<llvm::CallGraphNode *> &scc)
{
   std::set<const llvm::CallGraphNode *> inScc(scc.begin(), scc.end());
   const llvm::CallGraphNode *start = scc.front();
   std::map<const llvm::CallGraphNode *, const llvm::CallGraphNode *> parent;
   std::deque<const llvm::CallGraphNode *> work{ start };
   const llvm::CallGraphNode *last = nullptr;
   while (!work.empty() && !last) {
      const llvm::CallGraphNode *n = work.front();
      work.pop_front();
      for (const llvm::CallGraphNode::CallRecord &edge : *n) {
         const llvm::CallGraphNode *to = edge.second;
         if (!inScc.count(to))
            continue;
         if (to == start) {
            last = n;
            break;
         }
         if (parent.emplace(to, n).second)
            work.push_back(to);
      }
   }
   std::vector<const llvm::Function *> path;
   for (const llvm::CallGraphNode *n = last; n && n != start; n = parent[n])
      path.insert(path.begin(), n->getFunction());
   path.insert(path.begin(), start->getFunction());
   return path;
}

// The name a dropped function is reported by, and the metadata that keeps it for unnamed ones.
constexpr const char *kOriginMD = "hsacl.origin";

struct DeviceLibOrigins : llvm::PassInfoMixin<DeviceLibOrigins> {
   llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
   {
      for (llvm::Function &f : m) {
         if (f.hasName() || f.isDeclaration())
            continue;
         for (const llvm::User *u : f.users()) {
            const auto *call = llvm::dyn_cast<llvm::CallBase>(u);
            const llvm::Function *caller = call ? call->getFunction() : nullptr;
            if (!caller || !caller->hasName())
               continue;
            llvm::LLVMContext &ctx = m.getContext();
            f.setMetadata(kOriginMD,
                          llvm::MDNode::get(ctx, llvm::MDString::get(ctx, caller->getName())));
            break;
         }
      }
      return llvm::PreservedAnalyses::all();
   }
};

std::string
reportedName(const llvm::Function &f)
{
   if (f.hasName())
      return sourceName(f, "");
   if (const llvm::MDNode *md = f.getMetadata(kOriginMD))
      if (auto *s = llvm::dyn_cast<llvm::MDString>(md->getOperand(0)))
         return llvm::demangle(s->getString()) + " (its target-specific helper)";
   return "an unnamed function";
}

// An error of hsacl's own through the context's diagnostic handler (the build log), which
// makes the build fail; LLVM 19 has no generic one.
struct BuildError : llvm::DiagnosticInfo {
   std::string msg;
   explicit BuildError(std::string msg)
      : llvm::DiagnosticInfo(kind(), llvm::DS_Error), msg(std::move(msg))
   {
   }
   static int kind()
   {
      static const int k = llvm::getNextAvailablePluginDiagnosticKind();
      return k;
   }
   void print(llvm::DiagnosticPrinter &dp) const override { dp << msg; }
};

struct DroppedFunctionCheck : llvm::PassInfoMixin<DroppedFunctionCheck> {
   // The subtarget of one (processor, features) pair, as the backend builds it: the
   // processor's implied features plus the function's.
   std::map<std::string, std::unique_ptr<llvm::MCSubtargetInfo>> subtargets;

   const llvm::MCSubtargetInfo *subtarget(const llvm::Module &m, llvm::StringRef cpu,
                                          llvm::StringRef fs)
   {
      std::string key = (cpu + "/" + fs).str();
      auto it = subtargets.find(key);
      if (it != subtargets.end())
         return it->second.get();
      std::string err;
      const llvm::Target *t = llvm::TargetRegistry::lookupTarget(m.getTargetTriple(), err);
      llvm::MCSubtargetInfo *sti =
         t ? t->createMCSubtargetInfo(m.getTargetTriple(), cpu, fs) : nullptr;
      subtargets[key].reset(sti);
      return sti;
   }

   // The first feature `f` enables that `sti` does not have, or "". Names the subtarget does
   // not know are skipped (checkFeatures would warn on stderr and ignore them anyway).
   static std::string missingFeature(const llvm::Function &f, const llvm::MCSubtargetInfo &sti)
   {
      llvm::Attribute a = f.getFnAttribute("target-features");
      if (!a.isValid())
         return "";
      llvm::SmallVector<llvm::StringRef, 16> list;
      a.getValueAsString().split(list, ',', -1, false);
      for (llvm::StringRef feat : list) {
         if (!feat.consume_front("+"))
            continue;
         bool known = false;
         for (const llvm::SubtargetFeatureKV &kv : sti.getAllProcessorFeatures())
            known |= feat == kv.Key;
         if (known && !sti.checkFeatures(("+" + feat).str()))
            return feat.str();
      }
      return "";
   }

   llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &)
   {
      for (llvm::Function &k : m) {
         if (k.isDeclaration() || k.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL)
            continue;
         // Every kernel has one (clang's, or the build's for SPIR-V); without it the
         // subtarget would be the generic one, which has no feature to compare with.
         llvm::StringRef cpu = k.getFnAttribute("target-cpu").getValueAsString();
         if (cpu.empty())
            continue;
         const llvm::MCSubtargetInfo *sti =
            subtarget(m, cpu, k.getFnAttribute("target-features").getValueAsString());
         if (!sti)
            continue;
         std::set<const llvm::Function *> seen{ &k };
         std::deque<const llvm::Function *> work{ &k };
         while (!work.empty()) {
            const llvm::Function *f = work.front();
            work.pop_front();
            for (const llvm::BasicBlock &bb : *f)
               for (const llvm::Instruction &i : bb)
                  for (const llvm::Value *op : i.operands()) {
                     const auto *callee = llvm::dyn_cast<llvm::Function>(op);
                     if (!callee || callee->isDeclaration() || !seen.insert(callee).second)
                        continue;
                     std::string feat = missingFeature(*callee, *sti);
                     if (feat.empty()) {
                        work.push_back(callee);
                        continue;
                     }
                     m.getContext().diagnose(BuildError(
                        ("kernel '" + k.getName() + "' calls device-library function '" +
                         reportedName(*callee) + "', which needs target feature '" + feat +
                         "' that " + cpu +
                         " does not have (code generation would drop it and leave the "
                         "kernel without effect)")
                           .str()));
                  }
         }
      }
      return llvm::PreservedAnalyses::all();
   }
};
} // namespace

bool
compCheckNoRecursion(llvm::Module &m, llvm::StringRef hidePrefix, llvm::raw_ostream &log)
{
   llvm::CallGraph cg(m);
   bool ok = true;
   for (auto it = llvm::scc_begin(&cg); !it.isAtEnd(); ++it) {
      if (!it.hasCycle())
         continue;
      const std::vector<llvm::CallGraphNode *> &scc = *it;
      bool real = true;
      for (const llvm::CallGraphNode *n : scc)
         real &= n->getFunction() != nullptr; // the external nodes are no functions
      if (!real)
         continue;
      std::vector<const llvm::Function *> cycle = oneCycle(scc);
      log << "error: recursion is not supported in OpenCL C: ";
      if (cycle.size() == 1) {
         log << "'" << sourceName(*cycle[0], hidePrefix) << "' calls itself";
      } else {
         for (const llvm::Function *f : cycle)
            log << "'" << sourceName(*f, hidePrefix) << "' calls ";
         log << "'" << sourceName(*cycle[0], hidePrefix) << "'";
      }
      if (scc.size() > cycle.size())
         log << " (" << scc.size() << " functions call each other in all)";
      log << "\n";
      ok = false;
   }
   return ok;
}

void
compAddEarlyPasses(llvm::ModulePassManager &mpm)
{
   mpm.addPass(PrintfArguments());
   mpm.addPass(PrintfUpperConversions());
   mpm.addPass(DeviceLibOrigins());
}

void
compAddLatePasses(llvm::ModulePassManager &mpm)
{
   mpm.addPass(PrintfRestoreFormats());
   mpm.addPass(llvm::createModuleToFunctionPassAdaptor(FreezeDynamicExtracts()));
   mpm.addPass(DroppedFunctionCheck());
}
