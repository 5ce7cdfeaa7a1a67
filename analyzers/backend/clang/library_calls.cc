#include "analyzers/backend/clang/library_calls.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <set>

#include "analyzers/backend/clang/ast_values.h"

namespace testmap::backend::clang_reader {
namespace {

using namespace clang;

constexpr int kMaxHelperDepth = 8;

// `add.Tensor` in namespace aten -> `aten::add.Tensor`; qualified names
// (`aten::add.Tensor` inside TORCH_SELECTIVE_NAME) stay as they are.
std::string Qualify(const std::string& name, const std::string& ns) {
  if (name.find("::") != std::string::npos || ns.empty() || ns == "_") return name;
  return ns + "::" + name;
}

// The operator name a schema defines: `scale(Tensor x) -> Tensor` ->
// `scale`, `fill_.Scalar(Tensor(a!) self, ...)` -> `fill_.Scalar`.
std::string SchemaName(const std::string& schema) {
  std::string name = schema.substr(0, schema.find('('));
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
  size_t start = name.find_first_not_of(" \t\n");
  return start == std::string::npos ? "" : name.substr(start);
}

bool IsTagList(const Expr* e) {
  std::string t = e->IgnoreParenImpCasts()->getType().getNonReferenceType().getAsString();
  return t.find("vector<at::Tag") != std::string::npos ||
         t.find("initializer_list<at::Tag") != std::string::npos ||
         t.find("vector<enum at::Tag") != std::string::npos;
}

class LibraryCallVisitor : public RecursiveASTVisitor<LibraryCallVisitor> {
 public:
  LibraryCallVisitor(const LibraryScope& scope, ReaderContext& ctx, int depth,
                     std::set<const FunctionDecl*>& active)
      : scope_(scope), ctx_(ctx), depth_(depth), active_(active) {}

  // A kernel given as a lambda runs when the operator is called, not when
  // the library is set up: its body registers nothing.
  bool TraverseLambdaExpr(LambdaExpr*) { return true; }

  bool VisitCallExpr(CallExpr* call) {
    if (const auto* member = dyn_cast<CXXMemberCallExpr>(call)) {
      const CXXMethodDecl* method = member->getMethodDecl();
      if (method && method->getParent()->getQualifiedNameAsString() == "torch::Library") {
        LibraryCall(member, method->getName().str());
        return true;
      }
    }
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd || isa<CXXMethodDecl>(fd)) return true;
    bool takes_library = false;
    for (const ParmVarDecl* p : fd->parameters()) takes_library |= IsLibrary(p->getType());
    if (!takes_library) return true;
    const FunctionDecl* def = fd->getDefinition();
    if (!def || !def->hasBody()) {
      ctx_.Warn(call->getBeginLoc(), "registrations made in " + fd->getQualifiedNameAsString() +
                                         " (not defined in this translation unit) are not read");
      return true;
    }
    if (depth_ >= kMaxHelperDepth || active_.count(def)) return true;
    active_.insert(def);
    LibraryCallVisitor inner(scope_, ctx_, depth_ + 1, active_);
    inner.TraverseStmt(def->getBody());
    active_.erase(def);
    return true;
  }

 private:
  Registration Base(const CallExpr* call, const std::string& mechanism) const {
    Where w = ctx_.Locate(call->getBeginLoc());
    Registration r;
    r.mechanism = mechanism;
    r.file = w.file;
    r.line = w.line;
    r.macro = w.macro;
    return r;
  }

  void LibraryCall(const CXXMemberCallExpr* call, const std::string& method) {
    std::vector<const Expr*> args = ExplicitArgs(call);
    // impl(name, fn, _RegisterOrVerify): the last one is no kernel.
    if (!args.empty() &&
        args.back()->getType().getAsString().find("_RegisterOrVerify") != std::string::npos)
      args.pop_back();
    size_t n = args.size();
    if (method == "impl" && n >= 2) {
      auto name = StringValue(args.at(0));
      if (!name) {
        ctx_.Warn(call->getBeginLoc(), "m.impl with a name that is not a literal (" +
                                           ctx_.Text(args.at(0)->getSourceRange()) + "): not read");
        return;
      }
      KernelArg k = ReadKernel(args.at(n - 1));
      std::string key = scope_.key;
      if (n >= 3) {  // impl(name, dispatch, fn)
        if (auto dk = EnumConstant(args.at(1), "c10::DispatchKey"))
          key = *dk;
        else if (auto dt = EnumConstant(args.at(1), "c10::DeviceType"))
          key = DeviceTypeKey(*dt);
      }
      if (!k.key.empty()) key = k.key;
      // Without a key (an impl inside TORCH_LIBRARY) the kernel is a
      // catch-all, which the dispatcher files under CompositeImplicitAutograd.
      if (key.empty()) key = "CompositeImplicitAutograd";
      Registration r = Base(call, "m.impl");
      r.op = Qualify(*name, scope_.ns);
      r.dispatch_key = key;
      r.kind = k.fallthrough ? Kind::kFallthrough : Kind::kKernel;
      r.kernel = k.fallthrough ? "" : k.name;
      ctx_.Add(std::move(r));
    } else if (method == "def" && n >= 1) {
      auto schema = StringValue(args.at(0));
      if (!schema) {
        ctx_.Warn(call->getBeginLoc(), "m.def with a schema that is not a literal (" +
                                           ctx_.Text(args.at(0)->getSourceRange()) + "): not read");
        return;
      }
      Registration d = Base(call, "m.def");
      d.op = Qualify(SchemaName(*schema), scope_.ns);
      d.kind = Kind::kDefinition;
      if (schema->find('(') != std::string::npos) d.schema = *schema;
      std::string op = d.op;
      ctx_.Add(std::move(d));
      // def(schema, fn): the schema plus a catch-all kernel.
      if (n >= 2 && !IsTagList(args.at(1))) {
        KernelArg k = ReadKernel(args.at(1));
        Registration r = Base(call, "m.def");
        r.op = op;
        r.dispatch_key = k.key.empty() ? "CompositeImplicitAutograd" : k.key;
        r.kind = k.fallthrough ? Kind::kFallthrough : Kind::kKernel;
        r.kernel = k.name;
        ctx_.Add(std::move(r));
      }
    } else if (method == "fallback" && n >= 1) {
      KernelArg k = ReadKernel(args.at(0));
      Registration r = Base(call, "m.fallback");
      r.dispatch_key = k.key.empty() ? scope_.key : k.key;
      r.kind = k.fallthrough ? Kind::kFallthrough : Kind::kFallback;
      r.kernel = k.fallthrough ? "" : k.name;
      if (scope_.ns != "_")
        ctx_.Warn(call->getBeginLoc(), "m.fallback in namespace " + scope_.ns +
                                           "; torch only accepts fallbacks on namespace _");
      ctx_.Add(std::move(r));
    }
  }

  const LibraryScope& scope_;
  ReaderContext& ctx_;
  int depth_;
  std::set<const FunctionDecl*>& active_;
};

}  // namespace

void ReadLibraryFunction(const FunctionDecl* fn, const LibraryScope& scope, ReaderContext& ctx) {
  std::set<const FunctionDecl*> active{fn};
  LibraryCallVisitor v(scope, ctx, 0, active);
  v.TraverseStmt(fn->getBody());
}

}  // namespace testmap::backend::clang_reader
