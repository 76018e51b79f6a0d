// comp_wgfree.cpp — which kernels cannot tell how their work-items are grouped.
//
// A kernel that never asks for its local id, local size, group id or number of groups,
// never synchronises or shares memory within a work-group (barriers, local memory,
// work-group and sub-group functions, async copies) and runs no device-side enqueue computes
// the same results whatever the work-group size: only get_global_id and the other global
// queries reach it. The dispatch may then run a launch in one-work-item groups as groups of a
// wave (disp_kernel.c), which on a GPU fills 64 lanes instead of one.
//
// The analysis reads the program's own IR before the device libraries are linked (their
// definitions of get_global_id read the hardware's group and item ids): from each kernel,
// every function the program defines that it may call, and the names of the builtins they
// declare. It is conservative: an indirect call, inline assembly, an amdgcn intrinsic (the
// program's own __builtin_amdgcn_*), a builtin whose name says work-group, sub-group, local,
// barrier, fence, event, pipe or enqueue, a variable declared and not defined (a built-in
// variable), local memory anywhere in the program and a reqd_work_group_size or required
// sub-group size all make a kernel not free. A free kernel
// gets a one-byte constant symbol kWorkGroupFreePrefix + its name in the code object, which
// comp_parse_metadata turns into comp_kernel.work_group_free; a code object from elsewhere
// has none and its kernels run as enqueued.

#include "comp_llvm_priv.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

namespace comp {
namespace {

// Builtin names (mangled or not) that let a kernel see or depend on its work-group.
bool
builtinObservesGroups(llvm::StringRef name)
{
   static const char *const kWords[] = {
      "get_local_",  "get_group_id", "get_num_groups", "get_enqueued", "barrier",
      "work_group",  "sub_group",    "event",          "pipe",         "enqueue",
      "get_default_queue", "ndrange", "get_kernel_",   "__spirv",      "fence",
   };
   for (const char *w : kWords)
      if (name.contains(w))
         return true;
   return name.starts_with("llvm.amdgcn.");
}

// Whether `f` and every function it may call are free of what builtinObservesGroups names.
bool
callsAreFree(const llvm::Function &f, llvm::SmallPtrSetImpl<const llvm::Function *> &seen)
{
   if (!seen.insert(&f).second)
      return true;
   if (f.isDeclaration())
      return !builtinObservesGroups(f.getName());
   for (const llvm::Instruction &i : llvm::instructions(f)) {
      // A variable the program declares and does not define: a built-in variable (SPIR-V's
      // BuiltIn ids, such as LocalInvocationId, as a translator may leave them).
      for (const llvm::Use &u : i.operands()) {
         const auto *g = llvm::dyn_cast<llvm::GlobalVariable>(llvm::getUnderlyingObject(u.get()));
         if (g && g->isDeclaration())
            return false;
      }
      const auto *call = llvm::dyn_cast<llvm::CallBase>(&i);
      if (!call)
         continue;
      if (call->isInlineAsm())
         return false;
      const llvm::Function *callee = call->getCalledFunction();
      if (!callee || !callsAreFree(*callee, seen))
         return false;
   }
   return true;
}

bool
usesLocalMemory(const llvm::Module &m)
{
   for (const llvm::GlobalVariable &g : m.globals())
      if (g.getAddressSpace() == 3)
         return true;
   return false;
}

bool
kernelIsFree(const llvm::Function &k)
{
   if (k.getMetadata("reqd_work_group_size") || k.getMetadata("intel_reqd_sub_group_size"))
      return false;
   for (const llvm::Argument &a : k.args())
      if (a.getType()->isPointerTy() && a.getType()->getPointerAddressSpace() == 3)
         return false;
   llvm::SmallPtrSet<const llvm::Function *, 16> seen;
   return callsAreFree(k, seen);
}

} // namespace

void
markWorkGroupFree(llvm::Module &m)
{
   if (usesLocalMemory(m))
      return;
   std::vector<llvm::GlobalValue *> marks;
   llvm::Type *i8 = llvm::Type::getInt8Ty(m.getContext());
   for (llvm::Function &k : m.functions()) {
      if (k.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL || k.isDeclaration() ||
          !kernelIsFree(k))
         continue;
      auto *g = new llvm::GlobalVariable(m, i8, true, llvm::GlobalValue::ExternalLinkage,
                                         llvm::ConstantInt::get(i8, 1),
                                         kWorkGroupFreePrefix + k.getName().str(), nullptr,
                                         llvm::GlobalValue::NotThreadLocal, 4);
      g->setVisibility(llvm::GlobalValue::HiddenVisibility);
      marks.push_back(g);
   }
   if (!marks.empty())
      llvm::appendToCompilerUsed(m, marks);
}

} // namespace comp
