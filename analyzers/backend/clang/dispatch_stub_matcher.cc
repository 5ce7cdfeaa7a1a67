// REGISTER_PRIVATEUSE1_DISPATCH(stub, fn) and its siblings fill an entry of
// an ATen DispatchStub (a per-device function pointer ATen's own kernels
// call); they register no operator. They expand to a static
// at::native::Register<DEVICE>Dispatch<stub type> variable.
#include <clang/AST/ExprCXX.h>

#include <map>

#include "analyzers/backend/clang/ast_values.h"
#include "analyzers/backend/clang/matchers.h"

namespace testmap::backend::clang_reader {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

const std::map<std::string, std::string>& RegistrarKeys() {
  static const std::map<std::string, std::string> keys{
      {"RegisterPRIVATEUSE1Dispatch", "PrivateUse1"},
      {"RegisterCUDADispatch", "CUDA"},
      {"RegisterXPUDispatch", "XPU"},
      {"RegisterHPUDispatch", "HPU"},
      {"RegisterHIPDispatch", "HIP"},
      {"RegisterMPSDispatch", "MPS"},
      {"RegisterMTIADispatch", "MTIA"},
  };
  return keys;
}

class DispatchStubCallback : public MatchFinder::MatchCallback {
 public:
  explicit DispatchStubCallback(ReaderContext& ctx) : ctx_(ctx) {}

  void run(const MatchFinder::MatchResult& result) override {
    const auto* var = result.Nodes.getNodeAs<VarDecl>("var");
    const auto* registrar = result.Nodes.getNodeAs<CXXRecordDecl>("registrar");
    if (!var || !registrar || !ctx_.IsOwn(var->getLocation())) return;
    // The registrars live in an anonymous namespace inside at::native.
    if (registrar->getQualifiedNameAsString().rfind("at::native::", 0) != 0) return;
    auto key = RegistrarKeys().find(registrar->getNameAsString());
    if (key == RegistrarKeys().end()) return;
    Where w = ctx_.Locate(var->getLocation());
    Registration r;
    r.kind = Kind::kStub;
    r.dispatch_key = key->second;
    r.mechanism = w.macro.empty() ? registrar->getNameAsString() : w.macro;
    r.file = w.file;
    r.line = w.line;
    if (const auto* c = dyn_cast_or_null<CXXConstructExpr>(
            var->getInit() ? var->getInit()->IgnoreImplicit() : nullptr);
        c && c->getNumArgs() >= 2) {
      if (const auto* ref = dyn_cast<DeclRefExpr>(c->getArg(0)->IgnoreParenImpCasts()))
        r.symbol = QualifiedName(ref->getDecl());
      r.kernel = ReadKernel(c->getArg(1)).name;
    }
    ctx_.Add(std::move(r));
  }

 private:
  ReaderContext& ctx_;
};

}  // namespace

void AddDispatchStubMatcher(MatchFinder& finder, ReaderContext& ctx, Callbacks& owned) {
  owned.push_back(std::make_unique<DispatchStubCallback>(ctx));
  finder.addMatcher(
      varDecl(hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(
                  classTemplateSpecializationDecl(matchesName("::Register[A-Z0-9]+Dispatch$"))
                      .bind("registrar"))))))
          .bind("var"),
      owned.back().get());
}

}  // namespace testmap::backend::clang_reader
