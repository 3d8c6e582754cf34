// nvcc's extended-lambda closure-type traits, exact.
//
// The CUDA C++ Programming Guide ("Extended Lambdas", "Extended Lambda Type Traits")
// defines an extended lambda as one annotated `__device__` or `__host__ __device__` and
// defined in the (possibly nested) block scope of a `__host__` or `__host__ __device__`
// function; `__nv_is_extended_device_lambda_closure_type(T)` is true for the closure type
// of an extended `__device__` lambda, `..._host_device_...` for an extended
// `__host__ __device__` one, and `__nv_is_extended_device_lambda_with_preserved_return_type`
// for an extended `__device__` lambda with a trailing return type. Named function objects,
// unannotated lambdas and lambdas defined in `__device__`/`__global__` functions are none
// of these (checked against nvcc 13, see crates/nvrtc-abi/tests/lambda_traits.rs).
//
// clang's types do not show the lambda's annotation to C++ code, so when Sema numbers a
// new closure type (it does for every lambda in CUDA mode, right after the call
// operator got its attributes; template instantiations included) we give the closure of
// an extended lambda one member, `typedef char __nv_extended_lambda_kind_marker[K]`, K a
// bit set (1 device, 2 host-device, 4 preserved return type). A typedef changes neither
// layout, nor mangling, nor triviality. The hook is ExternalSemaSource's
// AssignedLambdaNumbering, which Sema calls on the AST context's external source: ours is
// multiplexed with the PCH reader there.

#include "extended_lambda.h"
#include <clang/AST/TypeLoc.h>
#include <clang/Basic/SourceManager.h>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Type.h>
#include <clang/Sema/ExternalSemaSource.h>
#include <clang/Sema/MultiplexExternalSemaSource.h>
#include <clang/Sema/ScopeInfo.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaCUDA.h>

using namespace clang;

namespace cuda_frontend {
namespace {

enum : unsigned { kDevice = 1, kHostDevice = 2, kPreservedReturnType = 4 };

bool explicit_attr(const Attr *a) { return a && !a->isImplicit(); }

class ExtendedLambdaSource : public ExternalSemaSource {
 public:
  void InitializeSema(Sema &sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }

  void AssignedLambdaNumbering(const CXXRecordDecl *lambda) override {
    if (!sema_ || !lambda) return;
    auto *closure = const_cast<CXXRecordDecl *>(lambda);
    const CXXMethodDecl *op = call_operator(closure);
    if (!op) return;
    unsigned kind = classify(closure, op);
    if (kind) mark(closure, kind);
  }

 private:
  // The call operator: Sema's current lambda scope while the lambda is being built (the
  // class may not list the operator yet), else the class's own.
  const CXXMethodDecl *call_operator(CXXRecordDecl *closure) {
    if (auto *lsi = sema_->getCurLambda())
      if (lsi->Lambda == closure && lsi->CallOperator) return lsi->CallOperator;
    for (Decl *d : closure->decls()) {
      if (auto *ft = dyn_cast<FunctionTemplateDecl>(d)) d = ft->getTemplatedDecl();
      if (auto *m = dyn_cast<CXXMethodDecl>(d))
        if (m->getOverloadedOperator() == OO_Call) return m;
    }
    return nullptr;
  }

  unsigned classify(const CXXRecordDecl *closure, const CXXMethodDecl *op) {
    bool device = explicit_attr(op->getAttr<CUDADeviceAttr>());
    bool host = explicit_attr(op->getAttr<CUDAHostAttr>());
    if (!device) return 0;  // unannotated, or __host__ alone
    // The enclosing function, through enclosing lambdas (Programming Guide: "the
    // immediate or nested block scope" of a __host__ or __host__ __device__ function).
    const DeclContext *dc = closure->getDeclContext();
    while (auto *m = dyn_cast_or_null<CXXMethodDecl>(dc)) {
      if (!m->getParent()->isLambda()) break;
      dc = m->getParent()->getDeclContext();
    }
    auto *fn = dyn_cast_or_null<FunctionDecl>(dc);
    if (!fn) return 0;
    CUDAFunctionTarget t = sema_->CUDA().IdentifyTarget(fn);
    if (t != CUDAFunctionTarget::Host && t != CUDAFunctionTarget::HostDevice) return 0;
    if (host) return kHostDevice;
    unsigned kind = kDevice;
    if (has_written_trailing_return(op)) kind |= kPreservedReturnType;
    return kind;
  }

  // A lambda without a declarator (`[] __device__ { }`) gets a type with a trailing
  // return type too; its return type's location is then the introducer's `]`, where a
  // written `-> T` is at T.
  bool has_written_trailing_return(const CXXMethodDecl *op) {
    auto *proto = op->getType()->getAs<FunctionProtoType>();
    if (!proto || !proto->hasTrailingReturn() || !op->getTypeSourceInfo()) return false;
    auto fn = op->getTypeSourceInfo()->getTypeLoc().getAsAdjusted<FunctionProtoTypeLoc>();
    if (!fn) return false;
    SourceLocation ret = fn.getReturnLoc().getBeginLoc();
    if (ret.isInvalid()) return false;
    const SourceManager &sm = sema_->getSourceManager();
    bool invalid = false;
    const char *text = sm.getCharacterData(sm.getSpellingLoc(ret), &invalid);
    return !invalid && text && *text != ']';
  }

  void mark(CXXRecordDecl *closure, unsigned kind) {
    ASTContext &ctx = sema_->getASTContext();
    SourceLocation loc = closure->getLocation();
    QualType t = ctx.getConstantArrayType(ctx.CharTy, llvm::APInt(32, kind), nullptr, ArraySizeModifier::Normal, 0);
    auto *td = TypedefDecl::Create(ctx, closure, loc, loc, &ctx.Idents.get("__nv_extended_lambda_kind_marker"),
                                   ctx.getTrivialTypeSourceInfo(t, loc));
    td->setAccess(AS_public);
    td->setImplicit();
    closure->addDecl(td);
  }

  Sema *sema_ = nullptr;
};

}  // namespace

void ExtendedLambdaConsumer::InitializeSema(Sema &sema) {
  // Sema::Initialize tells the context's external source about Sema right after the
  // consumers: installing ours (beside the PCH reader, if any) here is in time for both.
  ASTContext &ctx = sema.getASTContext();
  auto *ours = new ExtendedLambdaSource();
  ExternalASTSource *existing = ctx.getExternalSource();
  if (!existing) {
    ctx.setExternalSource(llvm::IntrusiveRefCntPtr<ExternalASTSource>(ours));
    return;
  }
  auto *existing_sema = dyn_cast<ExternalSemaSource>(existing);
  if (!existing_sema) {
    delete ours;  // not a Sema source (never the case with a PCH): no traits, no harm
    return;
  }
  ctx.setExternalSource(llvm::IntrusiveRefCntPtr<ExternalASTSource>(new MultiplexExternalSemaSource(existing_sema, ours)));
}

}  // namespace cuda_frontend
