#include "analyzers/backend/clang/ast_values.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace testmap::backend::clang_reader {
namespace {

using namespace clang;

const FunctionDecl* Callee(const Expr* e) {
  if (const auto* call = dyn_cast<CallExpr>(e)) return call->getDirectCallee();
  return nullptr;
}

std::string TemplateArgName(const TemplateArgument& arg) {
  if (arg.getKind() == TemplateArgument::Declaration)
    if (const auto* d = dyn_cast<NamedDecl>(arg.getAsDecl())) return QualifiedName(d);
  if (arg.getKind() == TemplateArgument::Type) return arg.getAsType().getAsString();
  return "";
}

// The function a class template specialization carries as its
// non-type template argument (`c10::CompileTimeFunctionPointer<F, &fn>`).
std::string FunctionPointerArg(QualType t) {
  const auto* spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec) return "";
  for (const auto& arg : spec->getTemplateArgs().asArray())
    if (arg.getKind() == TemplateArgument::Declaration) return TemplateArgName(arg);
  return "";
}

class KernelVisitor : public RecursiveASTVisitor<KernelVisitor> {
 public:
  explicit KernelVisitor(KernelArg* out) : out_(out) {}
  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitCallExpr(CallExpr* call) {
    const FunctionDecl* fd = call->getDirectCallee();
    if (!fd) return true;
    std::string name = fd->getQualifiedNameAsString();
    if (name == "torch::CppFunction::makeFallthrough") {
      out_->fallthrough = true;
      return true;
    }
    if (name == "torch::dispatch" && call->getNumArgs() == 2) {
      if (auto k = EnumConstant(call->getArg(0), "c10::DispatchKey"))
        out_->key = *k;
      else if (auto d = EnumConstant(call->getArg(0), "c10::DeviceType"))
        out_->key = DeviceTypeKey(*d);
      return true;
    }
    // makeFromBoxedFunction<&fn>(), makeFromUnboxedFunction<...>(): the
    // kernel is a template argument.
    if (name.rfind("torch::CppFunction::make", 0) == 0 && out_->name.empty())
      if (const auto* args = fd->getTemplateSpecializationArgs())
        for (const auto& a : args->asArray())
          if (std::string n = TemplateArgName(a); !n.empty()) {
            out_->name = n;
            break;
          }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr*) {
    if (out_->name.empty()) out_->name = "<lambda>";
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr* e) {
    if (out_->name.empty()) out_->name = FunctionPointerArg(e->getType());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    const auto* fd = dyn_cast<FunctionDecl>(e->getDecl());
    if (!fd || !out_->name.empty()) return true;
    std::string name = QualifiedName(fd);
    // The wrappers a registration goes through are not the kernel.
    if (name.rfind("torch::", 0) == 0 || name.rfind("c10::", 0) == 0 || name.rfind("std::", 0) == 0)
      return true;
    out_->name = name;
    return true;
  }

 private:
  KernelArg* out_;
};

class EnumFinder : public RecursiveASTVisitor<EnumFinder> {
 public:
  explicit EnumFinder(const std::string& enum_name) : enum_name_(enum_name) {}
  bool VisitDeclRefExpr(DeclRefExpr* e) {
    if (found) return false;
    if (const auto* c = dyn_cast<EnumConstantDecl>(e->getDecl()))
      if (const auto* en = dyn_cast<EnumDecl>(c->getDeclContext());
          en && en->getQualifiedNameAsString() == enum_name_) {
        found = c->getName().str();
        return false;
      }
    return true;
  }
  std::optional<std::string> found;

 private:
  const std::string& enum_name_;
};

// `at::autocast::WrapFunction_<...long...>::call` -> `at::autocast::WrapFunction_::call`:
// a kernel's name, not its instantiation.
std::string WithoutTemplateArgs(const std::string& name) {
  std::string out;
  int depth = 0;
  for (char c : name) {
    if (c == '<') ++depth;
    if (depth == 0) out += c;
    if (c == '>' && depth > 0) --depth;
  }
  return out;
}

}  // namespace

std::string QualifiedName(const NamedDecl* d) {
  return d ? WithoutTemplateArgs(d->getQualifiedNameAsString()) : std::string();
}

std::optional<std::string> StringValue(const Expr* e) {
  if (!e) return std::nullopt;
  e = e->IgnoreParenImpCasts();
  if (const auto* s = dyn_cast<StringLiteral>(e)) return s->getString().str();
  if (const auto* d = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(d->getDecl());
    if (v && v->getType().isConstQualified() && v->getAnyInitializer())
      return StringValue(v->getAnyInitializer());
    if (v && v->getType()->isArrayType() && v->getType().isConstQualified() && v->getInit())
      return StringValue(v->getInit());
    return std::nullopt;
  }
  // Wrappers that carry a name through unchanged: SelectiveStr<..>(n)
  // (TORCH_SELECTIVE_NAME), std::string / c10::string_view constructions,
  // temporaries, torch::schema("...", ...).
  if (const auto* c = dyn_cast<CXXConstructExpr>(e)) {
    if (c->getNumArgs() >= 1) return StringValue(c->getArg(0));
    return std::nullopt;
  }
  if (const auto* t = dyn_cast<MaterializeTemporaryExpr>(e)) return StringValue(t->getSubExpr());
  if (const auto* t = dyn_cast<CXXBindTemporaryExpr>(e)) return StringValue(t->getSubExpr());
  if (const auto* t = dyn_cast<ExprWithCleanups>(e)) return StringValue(t->getSubExpr());
  if (const auto* t = dyn_cast<CXXFunctionalCastExpr>(e)) return StringValue(t->getSubExpr());
  if (const auto* t = dyn_cast<CastExpr>(e)) return StringValue(t->getSubExpr());
  if (const FunctionDecl* fd = Callee(e)) {
    if (fd->getQualifiedNameAsString() == "torch::schema" && cast<CallExpr>(e)->getNumArgs() >= 1)
      return StringValue(cast<CallExpr>(e)->getArg(0));
  }
  return std::nullopt;
}

std::optional<std::string> EnumConstant(const Stmt* e, const std::string& enum_name) {
  if (!e) return std::nullopt;
  EnumFinder f(enum_name);
  f.TraverseStmt(const_cast<Stmt*>(e));
  return f.found;
}

std::string DeviceTypeKey(const std::string& device_type) {
  // c10::computeDispatchKey for dense tensors: the backend key is spelled
  // like the device type, except for the few below.
  if (device_type == "Meta") return "Meta";
  if (device_type == "Lazy") return "Lazy";
  return device_type;
}

KernelArg ReadKernel(const Expr* e) {
  KernelArg k;
  if (!e) return k;
  k.name = FunctionPointerArg(e->IgnoreParenImpCasts()->getType());
  KernelVisitor v(&k);
  v.TraverseStmt(const_cast<Expr*>(e));
  return k;
}

std::vector<const Expr*> ExplicitArgs(const CallExpr* call) {
  std::vector<const Expr*> args;
  for (const Expr* a : call->arguments())
    if (!isa<CXXDefaultArgExpr>(a)) args.push_back(a);
  return args;
}

bool IsLibrary(QualType t) {
  const CXXRecordDecl* rd = t.getNonReferenceType()->getAsCXXRecordDecl();
  return rd && rd->getQualifiedNameAsString() == "torch::Library";
}

}  // namespace testmap::backend::clang_reader
