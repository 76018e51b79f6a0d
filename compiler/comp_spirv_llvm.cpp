// comp_spirv_llvm.cpp — the LLVM half of SPIR-V ingestion: a module as Khronos' translator
// writes it (triple spir64, SPIR address spaces, spir_kernel/spir_func, OpenCL built-ins
// mangled for SPIR) becomes an amdgcn module the back half compiles like one clang wrote
// from OpenCL C.
//
// Address spaces (the SPIR 1.2/2.0 numbering the translator uses, and AMDGPUUsage
// "Address Spaces"): private 0 -> 5, global 1 -> 1, constant 2 -> 4, local 3 -> 3,
// generic 4 -> 0. A pointer's address space is part of its type, so the module is cloned
// with a type remapper (every pointer type, and the struct, array, vector and function
// types holding one), not edited in place. Intrinsics overloaded on pointer types get
// their names remangled; built-in declarations get the amdgcn mangling of their names
// (comp_mangle.c), which is what the device libraries define.
#include "comp_priv.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdlib>
#include <map>

namespace {

unsigned
mapAddressSpace(unsigned as)
{
   switch (as) {
   case 0:
      return 5; // private
   case 2:
      return 4; // constant
   case 4:
      return 0; // generic (flat)
   default:
      return as; // global 1, local 3
   }
}

class SpirTypeRemapper : public llvm::ValueMapTypeRemapper {
 public:
   explicit SpirTypeRemapper(llvm::LLVMContext &ctx) : ctx_(ctx)
   {
   }

   llvm::Type *remapType(llvm::Type *t) override
   {
      auto it = cache_.find(t);
      if (it != cache_.end())
         return it->second;
      llvm::Type *r = remap(t);
      cache_[t] = r;
      return r;
   }

 private:
   llvm::Type *remap(llvm::Type *t)
   {
      if (auto *p = llvm::dyn_cast<llvm::PointerType>(t))
         return llvm::PointerType::get(ctx_, mapAddressSpace(p->getAddressSpace()));
      if (auto *v = llvm::dyn_cast<llvm::VectorType>(t))
         return llvm::VectorType::get(remapType(v->getElementType()), v->getElementCount());
      if (auto *a = llvm::dyn_cast<llvm::ArrayType>(t))
         return llvm::ArrayType::get(remapType(a->getElementType()), a->getNumElements());
      if (auto *f = llvm::dyn_cast<llvm::FunctionType>(t)) {
         std::vector<llvm::Type *> params;
         for (llvm::Type *p : f->params())
            params.push_back(remapType(p));
         return llvm::FunctionType::get(remapType(f->getReturnType()), params, f->isVarArg());
      }
      if (auto *s = llvm::dyn_cast<llvm::StructType>(t)) {
         if (s->isOpaque())
            return s;
         if (s->isLiteral()) {
            std::vector<llvm::Type *> elts;
            for (llvm::Type *e : s->elements())
               elts.push_back(remapType(e));
            return llvm::StructType::get(ctx_, elts, s->isPacked());
         }
         if (!holdsPointer(s))
            return s;
         // A named struct holding a pointer gets a new named struct; registered before
         // its body is remapped, for self-referencing types.
         llvm::StructType *n = llvm::StructType::create(ctx_, s->getName());
         cache_[t] = n;
         std::vector<llvm::Type *> elts;
         for (llvm::Type *e : s->elements())
            elts.push_back(remapType(e));
         n->setBody(elts, s->isPacked());
         return n;
      }
      return t;
   }

   bool holdsPointer(llvm::Type *t)
   {
      std::vector<llvm::Type *> work{ t };
      llvm::SmallPtrSet<llvm::Type *, 16> seen;
      while (!work.empty()) {
         llvm::Type *x = work.back();
         work.pop_back();
         if (!seen.insert(x).second)
            continue;
         if (x->isPointerTy())
            return true;
         for (llvm::Type *sub : x->subtypes())
            work.push_back(sub);
      }
      return false;
   }

   llvm::LLVMContext &ctx_;
   std::map<llvm::Type *, llvm::Type *> cache_;
};

// The null pointer of the local and private address spaces is not the zero bit pattern on
// AMDGPU (AMDGPUUsage "Address Spaces": their null value is 0xffffffff, so that address 0
// of a work-group's LDS and of a work-item's scratch are usable), while SPIR's `null` is
// zero in every address space. The translator writes OpConstantNull as LLVM's `null`; in
// amdgcn terms that is the generic null cast to the address space, as clang writes it.
class SpirNullMaterializer : public llvm::ValueMaterializer {
 public:
   explicit SpirNullMaterializer(llvm::LLVMContext &ctx) : ctx_(ctx)
   {
   }

   llvm::Value *materialize(llvm::Value *v) override
   {
      auto *n = llvm::dyn_cast<llvm::ConstantPointerNull>(v);
      if (!n)
         return nullptr;
      unsigned as = mapAddressSpace(n->getType()->getAddressSpace());
      if (as != 3 && as != 5)
         return nullptr;
      return llvm::ConstantExpr::getAddrSpaceCast(
         llvm::ConstantPointerNull::get(llvm::PointerType::get(ctx_, 0)),
         llvm::PointerType::get(ctx_, as));
   }

 private:
   llvm::LLVMContext &ctx_;
};

// Attributes that carry a type (byval(T), sret(T), ...): the remapped type.
llvm::AttributeList
remapTypeAttributes(llvm::LLVMContext &ctx, llvm::AttributeList attrs, SpirTypeRemapper &tm)
{
   static const llvm::Attribute::AttrKind kinds[] = {
      llvm::Attribute::ByVal,    llvm::Attribute::StructRet,    llvm::Attribute::ByRef,
      llvm::Attribute::InAlloca, llvm::Attribute::Preallocated, llvm::Attribute::ElementType,
   };
   for (unsigned i = 0; i < attrs.getNumAttrSets(); i++) {
      unsigned index = i == 0   ? llvm::AttributeList::ReturnIndex
                       : i == 1 ? llvm::AttributeList::FunctionIndex
                                : llvm::AttributeList::FirstArgIndex + (i - 2);
      for (llvm::Attribute::AttrKind k : kinds)
         if (llvm::Type *ty = attrs.getAttributeAtIndex(index, k).isValid()
                                 ? attrs.getAttributeAtIndex(index, k).getValueAsType()
                                 : nullptr)
            attrs = attrs.replaceAttributeTypeAtIndex(ctx, index, k, tm.remapType(ty));
   }
   return attrs;
}

// Built-ins hsacl's device libraries define under amdgcn mangling: every declaration whose
// name the rewriter changes is renamed (or merged into an existing declaration of the new
// name). Names the rewriter does not know stay, and resolve or not at link time.
void
remangleBuiltins(llvm::Module &m)
{
   std::vector<llvm::Function *> decls;
   for (llvm::Function &f : m)
      if (f.isDeclaration() && !f.isIntrinsic() && f.getName().starts_with("_Z"))
         decls.push_back(&f);
   for (llvm::Function *f : decls) {
      char *out = nullptr;
      std::string name = f->getName().str();
      if (comp__mangle_spir_to_amdgcn(name.data(), name.size(), &out) != 1)
         continue;
      std::string amd(out);
      free(out);
      if (llvm::Function *existing = m.getFunction(amd)) {
         if (existing->getFunctionType() == f->getFunctionType()) {
            f->replaceAllUsesWith(existing);
            f->eraseFromParent();
         }
         continue;
      }
      f->setName(amd);
   }
}

// Reservation ids (OpenCL C reserve_id_t). clang passes them to the pipe built-ins as global
// pointers (ptr addrspace(1)); the translator writes them as SPIR private pointers
// (%opencl.reserve_id_t*, address space 0), which the remapping above made 32-bit amdgcn
// private pointers. The built-ins' declarations get clang's types and their calls convert
// the ids: zero-extended in, truncated out. compiler/comp_builtins_pipe.cl keeps ids below
// 2^32 and reads their low 32 bits only, so nothing is lost. False, with the reason in
// `log`, when one of these built-ins is used other than called.
bool
retypeReserveIds(llvm::Module &m, llvm::raw_ostream &log)
{
   static const struct {
      const char *name;
      int pos; /* the reserve id: parameter number, or -1 for the return value */
   } builtins[] = {
      { "__reserve_read_pipe", -1 },
      { "__reserve_write_pipe", -1 },
      { "__work_group_reserve_read_pipe", -1 },
      { "__work_group_reserve_write_pipe", -1 },
      { "__sub_group_reserve_read_pipe", -1 },
      { "__sub_group_reserve_write_pipe", -1 },
      { "__commit_read_pipe", 1 },
      { "__commit_write_pipe", 1 },
      { "__work_group_commit_read_pipe", 1 },
      { "__work_group_commit_write_pipe", 1 },
      { "__sub_group_commit_read_pipe", 1 },
      { "__sub_group_commit_write_pipe", 1 },
      { "__read_pipe_4", 1 },
      { "__write_pipe_4", 1 },
      { "_Z19is_valid_reserve_id13ocl_reserveid", 0 },
   };
   llvm::LLVMContext &ctx = m.getContext();
   const llvm::DataLayout &dl = m.getDataLayout();
   llvm::PointerType *global = llvm::PointerType::get(ctx, 1);
   llvm::IntegerType *i64 = llvm::Type::getInt64Ty(ctx);
   for (const auto &e : builtins) {
      llvm::Function *f = m.getFunction(e.name);
      if (!f || !f->isDeclaration())
         continue;
      llvm::FunctionType *ft = f->getFunctionType();
      if (e.pos >= (int)ft->getNumParams())
         continue;
      llvm::Type *old = e.pos < 0 ? ft->getReturnType() : ft->getParamType(e.pos);
      if (!old->isPointerTy() || old == global)
         continue;
      llvm::IntegerType *oldInt = llvm::Type::getIntNTy(ctx, dl.getPointerTypeSizeInBits(old));
      std::vector<llvm::Type *> params(ft->param_begin(), ft->param_end());
      llvm::Type *ret = ft->getReturnType();
      if (e.pos < 0)
         ret = global;
      else
         params[e.pos] = global;
      llvm::Function *n = llvm::Function::Create(llvm::FunctionType::get(ret, params, false),
                                                 f->getLinkage(), "", &m);
      n->takeName(f);
      n->setCallingConv(f->getCallingConv());
      for (llvm::User *u : llvm::make_early_inc_range(f->users())) {
         auto *call = llvm::dyn_cast<llvm::CallInst>(u);
         if (!call || call->getCalledFunction() != f) {
            log << "error: " << e.name << " is used other than called\n";
            return false;
         }
         llvm::IRBuilder<> b(call);
         std::vector<llvm::Value *> args(call->arg_begin(), call->arg_end());
         if (e.pos >= 0)
            args[e.pos] =
               b.CreateIntToPtr(b.CreateZExt(b.CreatePtrToInt(args[e.pos], oldInt), i64), global);
         llvm::CallInst *nc = b.CreateCall(n, args);
         nc->setCallingConv(call->getCallingConv());
         llvm::Value *r = nc;
         if (e.pos < 0)
            r = b.CreateIntToPtr(b.CreateTrunc(b.CreatePtrToInt(nc, i64), oldInt), old);
         call->replaceAllUsesWith(r);
         nc->takeName(call);
         call->eraseFromParent();
      }
      f->eraseFromParent();
   }
   return true;
}

// SPIR passes a kernel's struct argument as a pointer with byval(T); an amdgcn kernel
// receives it in the kernarg segment, as clang passes it: ptr addrspace(4) byref(T). Each
// such kernel is rebuilt with byref parameters, and its body reads a private copy (byval:
// the callee may write its copy). False, with the reason in `log`, when a kernel with a
// byval argument is also called (SPIR-V cannot express that: OpEntryPoint functions are
// not called; the translator's wrappers call the body, not the kernel).
bool
kernelByvalToByref(llvm::Module &m, llvm::raw_ostream &log)
{
   std::vector<llvm::Function *> work;
   for (llvm::Function &f : m)
      if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && !f.isDeclaration())
         for (llvm::Argument &a : f.args())
            if (a.hasByValAttr()) {
               work.push_back(&f);
               break;
            }
   llvm::LLVMContext &ctx = m.getContext();
   const llvm::DataLayout &dl = m.getDataLayout();
   for (llvm::Function *f : work) {
      if (!f->use_empty()) {
         log << "error: kernel " << f->getName()
             << " takes a struct by value and is also called: not supported\n";
         return false;
      }
      std::vector<llvm::Type *> params;
      for (llvm::Argument &a : f->args())
         params.push_back(a.hasByValAttr() ? llvm::PointerType::get(ctx, 4) : a.getType());
      auto *ft = llvm::FunctionType::get(f->getReturnType(), params, false);
      llvm::Function *n = llvm::Function::Create(ft, f->getLinkage(), "", &m);
      n->takeName(f);
      n->copyAttributesFrom(f);
      n->copyMetadata(f, 0);
      llvm::AttributeList attrs = f->getAttributes();
      n->splice(n->begin(), f);
      llvm::IRBuilder<> b(&*n->getEntryBlock().getFirstInsertionPt());
      for (unsigned i = 0; i < f->arg_size(); i++) {
         llvm::Argument &old = *f->getArg(i);
         llvm::Argument &arg = *n->getArg(i);
         arg.setName(old.getName());
         if (!old.hasByValAttr()) {
            old.replaceAllUsesWith(&arg);
            continue;
         }
         llvm::Type *t = old.getParamByValType();
         llvm::Align align = old.getParamAlign().value_or(dl.getABITypeAlign(t));
         attrs = attrs.removeParamAttributes(ctx, i);
         attrs = attrs.addParamAttribute(ctx, i, llvm::Attribute::getWithByRefType(ctx, t));
         attrs = attrs.addParamAttribute(ctx, i, llvm::Attribute::getWithAlignment(ctx, align));
         attrs = attrs.addParamAttribute(ctx, i, llvm::Attribute::NoAlias);
         attrs = attrs.addParamAttribute(ctx, i, llvm::Attribute::ReadOnly);
         llvm::AllocaInst *copy =
            b.CreateAlloca(t, dl.getAllocaAddrSpace(), nullptr, old.getName() + ".copy");
         copy->setAlignment(align);
         b.CreateMemCpy(copy, align, &arg, align, dl.getTypeAllocSize(t));
         old.replaceAllUsesWith(copy);
      }
      n->setAttributes(attrs);
      f->eraseFromParent();
   }
   return true;
}

} // namespace

std::unique_ptr<llvm::Module>
compRetargetSpir(llvm::Module &src, const std::string &dataLayout, llvm::raw_ostream &log)
{
   llvm::LLVMContext &ctx = src.getContext();
   const std::string triple = src.getTargetTriple();
   if (triple.rfind("spir64", 0) != 0) {
      log << "error: the module's target is '" << triple
          << "', not spir64 (the device has 64 address bits)\n";
      return nullptr;
   }
   if (!src.alias_empty() || !src.ifunc_empty()) {
      log << "error: the module has global aliases or ifuncs, which SPIR-V cannot express\n";
      return nullptr;
   }
   auto dst = std::make_unique<llvm::Module>(src.getModuleIdentifier(), ctx);
   dst->setTargetTriple("amdgcn-amd-amdhsa");
   dst->setDataLayout(dataLayout);
   dst->setSourceFileName(src.getSourceFileName());

   SpirTypeRemapper tm(ctx);
   SpirNullMaterializer nulls(ctx);
   llvm::ValueToValueMapTy vmap;

   for (llvm::GlobalVariable &gv : src.globals()) {
      // UniformConstant (SPIR's constant address space 2) is read-only memory, but the
      // translator declares its variables `global`, not `constant`; printf's lowering then
      // refuses a format string there ("must be a trivially resolved constant string global
      // variable": CTS v2026 spirv_new extinst_printf_*).
      bool constant = gv.isConstant() || (gv.getAddressSpace() == 2 && gv.hasInitializer());
      auto *n = new llvm::GlobalVariable(
         *dst, tm.remapType(gv.getValueType()), constant, gv.getLinkage(), nullptr,
         gv.getName(), nullptr, gv.getThreadLocalMode(), mapAddressSpace(gv.getAddressSpace()),
         gv.isExternallyInitialized());
      n->copyAttributesFrom(&gv);
      vmap[&gv] = n;
   }
   for (llvm::Function &f : src) {
      auto *ft = llvm::cast<llvm::FunctionType>(tm.remapType(f.getFunctionType()));
      llvm::Function *n = llvm::Function::Create(ft, f.getLinkage(), f.getName(), dst.get());
      n->copyAttributesFrom(&f);
      n->setAttributes(remapTypeAttributes(ctx, f.getAttributes(), tm));
      if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
         n->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
      else
         n->setCallingConv(llvm::CallingConv::C);
      vmap[&f] = n;
      auto ai = n->arg_begin();
      for (llvm::Argument &a : f.args()) {
         ai->setName(a.getName());
         vmap[&a] = &*ai++;
      }
   }
   for (llvm::GlobalVariable &gv : src.globals())
      if (gv.hasInitializer())
         llvm::cast<llvm::GlobalVariable>(vmap[&gv])->setInitializer(
            llvm::MapValue(gv.getInitializer(), vmap, llvm::RF_None, &tm, &nulls));
   for (llvm::Function &f : src) {
      if (f.isDeclaration())
         continue;
      auto *n = llvm::cast<llvm::Function>(vmap[&f]);
      llvm::SmallVector<llvm::ReturnInst *, 8> returns;
      llvm::AttributeList keep = n->getAttributes();
      llvm::CloneFunctionInto(n, &f, vmap, llvm::CloneFunctionChangeType::DifferentModule, returns,
                              "", nullptr, &tm, &nulls);
      n->setAttributes(keep);
      n->setCallingConv(f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL
                           ? llvm::CallingConv::AMDGPU_KERNEL
                           : llvm::CallingConv::C);
   }
   for (llvm::NamedMDNode &nmd : src.named_metadata()) {
      llvm::StringRef name = nmd.getName();
      // SPIR-V bookkeeping the amdgcn module has no use for.
      if (name.starts_with("spirv.") || name == "opencl.spir.version" ||
          name.starts_with("opencl.used.") || name == "llvm.module.flags")
         continue;
      llvm::NamedMDNode *d = dst->getOrInsertNamedMetadata(name);
      for (llvm::MDNode *op : nmd.operands())
         d->addOperand(llvm::MapMetadata(op, vmap, llvm::RF_None, &tm));
   }
   dst->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version", 500);
   dst->addModuleFlag(llvm::Module::Error, "wchar_size", 4);

   // Intrinsics overloaded on a pointer type (llvm.memcpy.p0.p1.i64, ...) are named after
   // their old types: give them the names of their new ones.
   std::vector<llvm::Function *> intrinsics;
   for (llvm::Function &f : *dst)
      if (f.isIntrinsic())
         intrinsics.push_back(&f);
   for (llvm::Function *f : intrinsics)
      if (std::optional<llvm::Function *> r = llvm::Intrinsic::remangleIntrinsicFunction(f)) {
         f->replaceAllUsesWith(*r);
         f->eraseFromParent();
      }

   // Calls take the calling convention of what they call (spir_func calls become C ones;
   // a call of a kernel is left to splitCalledKernels).
   for (llvm::Function &f : *dst)
      for (llvm::Instruction &i : llvm::instructions(f))
         if (auto *cb = llvm::dyn_cast<llvm::CallBase>(&i)) {
            if (llvm::Function *callee = cb->getCalledFunction())
               cb->setCallingConv(callee->getCallingConv());
            else
               cb->setCallingConv(llvm::CallingConv::C);
         }
   remangleBuiltins(*dst);
   if (!retypeReserveIds(*dst, log) || !kernelByvalToByref(*dst, log))
      return nullptr;
   return dst;
}
