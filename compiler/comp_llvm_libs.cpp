// comp_llvm_libs.cpp — the device libraries of a build: hsacl's overrides (comp_builtins*.cl)
// and ROCm's opencl.bc, ocml.bc and ockl.bc, each loaded once per process and linked into a
// build as clang's -mlink-builtin-bitcode links them (only what the program still needs), and
// the oclc_* control constants generated per build instead of the oclc_*.bc files.

#include "comp_builtins.h"
#include "comp_llvm_priv.h"

#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Transforms/IPO/Internalize.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <map>
#include <mutex>

using namespace comp;

namespace {

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

   // The library's data layout; null with `error` set if the library is malformed.
   const std::string *
   dataLayout(std::string &error)
   {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!load(error))
         return nullptr;
      if (!layoutKnown_) {
         layout_ = mod_->getDataLayoutStr();
         layoutKnown_ = true;
      }
      return &layout_;
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
   std::string layout_;
   bool layoutKnown_ = false;
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

} // namespace

namespace comp {

const std::string *
deviceLibLayout(const Globals &g, std::string &error)
{
   return deviceLibs(g)[1]->dataLayout(error); // opencl.bc
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

// ocml writes a few constants as the exact product of two floats and adds them with its
// multiply-add, expecting the single rounding of a fused multiply-add: atan, asin and acos
// take pi/2 (or pi) - a as __ocml_fmuladd_f32(0x1.ddcb02p-1f, 0x1.aee9d6p+0f, -a), a product
// that is pi/2 to about 48 bits. llvm.fmuladd lets the optimiser fuse or not, and InstCombine
// folds a product of two constants to one rounded float: pi/2 then carries its 0.37-ulp
// rounding error into a result half its size, and float atan was 1.9 ulp from the correctly
// rounded value where ocml's design gives 0.9 (pyopencl's test_clmath::test_atan failed).
// Where the processor fuses at a multiply-add's cost (fast FMA; f64 FMA always is) such a
// call becomes llvm.fma, the fusion the backend would have chosen for a variable product.
static void
fuseConstantProducts(llvm::Module &m, const Target &t)
{
   const bool fastF32 = t.arch & llvm::AMDGPU::FEATURE_FAST_FMA_F32;
   std::vector<llvm::CallInst *> sites;
   for (llvm::Function &f : m)
      for (llvm::BasicBlock &bb : f)
         for (llvm::Instruction &inst : bb) {
            auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
            llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
            if (!callee || call->arg_size() != 3 ||
                !llvm::isa<llvm::ConstantFP>(call->getArgOperand(0)) ||
                !llvm::isa<llvm::ConstantFP>(call->getArgOperand(1)))
               continue;
            llvm::StringRef name = callee->getName();
            if ((name == "__ocml_fmuladd_f32" && fastF32) || name == "__ocml_fmuladd_f64")
               sites.push_back(call);
         }
   for (llvm::CallInst *call : sites) {
      llvm::IRBuilder<> b(call);
      llvm::Value *fma = b.CreateIntrinsic(
         llvm::Intrinsic::fma, { call->getType() },
         { call->getArgOperand(0), call->getArgOperand(1), call->getArgOperand(2) });
      call->replaceAllUsesWith(fma);
      call->eraseFromParent();
   }
}

// Links the device libraries into `m` as clang's -mlink-builtin-bitcode does
// (BackendConsumer::LinkInModules): only what is still undefined linked (DeviceLib::subset,
// then llvm::Linker with LinkOnlyNeeded), the build's default function attributes merged
// into every function linked, and what was linked internalized. Order: overrides (the
// mangled OpenCL builtins they redefine then resolve to them, not to opencl.bc), opencl,
// ocml, overrides again (for __ockl_get_local_linear_id, referenced only by what opencl.bc
// brought in), ockl, oclc. Then fuseConstantProducts.
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
         std::string error;
         const std::string *layout = deviceLibLayout(g, error);
         if (!layout) {
            logOS << "error: " << error << "\n";
            return false;
         }
         fillControlModule(*lib, *layout, t, o, daz);
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
   fuseConstantProducts(m, t);
   return true;
}

} // namespace comp
