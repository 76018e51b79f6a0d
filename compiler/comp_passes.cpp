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
#include "comp_priv.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

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

} // namespace

void
compAddLatePasses(llvm::ModulePassManager &mpm)
{
   mpm.addPass(llvm::createModuleToFunctionPassAdaptor(FreezeDynamicExtracts()));
}
