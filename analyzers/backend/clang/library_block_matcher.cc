// TORCH_LIBRARY(ns, m), TORCH_LIBRARY_FRAGMENT(ns, m) and
// TORCH_LIBRARY_IMPL(ns, KEY, m) all expand to a static
// torch::detail::TorchLibraryInit constructed from (kind, init function,
// "ns", optional key, __FILE__, __LINE__). Matching that variable reads the
// block from the expansion, whatever macro (torch's or the backend's own)
// wrote it.
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include "analyzers/backend/clang/ast_values.h"
#include "analyzers/backend/clang/library_calls.h"
#include "analyzers/backend/clang/matchers.h"

namespace testmap::backend::clang_reader {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

// The block's init function: the function taking a torch::Library& that
// the constructor's second argument refers to (through `cond ? &f : [](){}`
// for IMPL blocks).
class InitFunctionFinder : public RecursiveASTVisitor<InitFunctionFinder> {
 public:
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    const auto* fd = dyn_cast<FunctionDecl>(e->getDecl());
    if (found || !fd || fd->getNumParams() != 1 || !IsLibrary(fd->getParamDecl(0)->getType()))
      return true;
    found = fd;
    return false;
  }
  const FunctionDecl* found = nullptr;
};

class LibraryBlockCallback : public MatchFinder::MatchCallback {
 public:
  explicit LibraryBlockCallback(ReaderContext& ctx) : ctx_(ctx) {}

  void run(const MatchFinder::MatchResult& result) override {
    const auto* var = result.Nodes.getNodeAs<VarDecl>("init");
    if (!var || !ctx_.IsOwn(var->getLocation())) return;
    const auto* construct = dyn_cast_or_null<CXXConstructExpr>(
        var->getInit() ? var->getInit()->IgnoreImplicit() : nullptr);
    if (!construct || construct->getNumArgs() < 4) return;
    LibraryScope scope;
    scope.kind = EnumConstant(construct->getArg(0), "torch::Library::Kind").value_or("");
    scope.ns = StringValue(construct->getArg(2)).value_or("");
    scope.key = EnumConstant(construct->getArg(3), "c10::DispatchKey").value_or("");
    InitFunctionFinder finder;
    finder.TraverseStmt(const_cast<Expr*>(construct->getArg(1)));
    if (!finder.found) return;
    const FunctionDecl* def = finder.found->getDefinition();
    if (!def || !def->hasBody()) {
      ctx_.Warn(var->getLocation(), "TORCH_LIBRARY block without a body: not read");
      return;
    }
    ReadLibraryFunction(def, scope, ctx_);
  }

 private:
  ReaderContext& ctx_;
};

}  // namespace

void AddLibraryBlockMatcher(MatchFinder& finder, ReaderContext& ctx, Callbacks& owned) {
  owned.push_back(std::make_unique<LibraryBlockCallback>(ctx));
  finder.addMatcher(
      varDecl(hasType(cxxRecordDecl(hasName("::torch::detail::TorchLibraryInit")))).bind("init"),
      owned.back().get());
}

}  // namespace testmap::backend::clang_reader
