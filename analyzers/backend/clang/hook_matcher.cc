// Device hooks, guards, allocators, generators and the like: what a
// PrivateUse1 backend must register besides kernels. They look like
// registrations in the source and none of them registers an operator, so
// they are reported as hooks, named by what they provide.
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>

#include <map>

#include "analyzers/backend/clang/ast_values.h"
#include "analyzers/backend/clang/matchers.h"

namespace testmap::backend::clang_reader {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

struct HookKind {
  std::string symbol;       // what is registered
  std::string default_key;  // when the call names no device type
};

// Functions whose call registers a hook.
const std::map<std::string, HookKind>& HookFunctions() {
  static const std::map<std::string, HookKind> f{
      {"at::RegisterPrivateUse1HooksInterface", {"PrivateUse1HooksInterface", "PrivateUse1"}},
      {"c10::SetAllocator", {"Allocator", ""}},
      {"at::setHostAllocator", {"HostAllocator", ""}},
      {"c10::register_privateuse1_backend", {"BackendName", "PrivateUse1"}},
      {"torch::profiler::impl::registerPrivateUse1Methods", {"ProfilerStubs", "PrivateUse1"}},
      {"torch::jit::TensorBackendMetaRegistry", {"BackendMetaSerialization", ""}},
  };
  return f;
}

// Types whose static instances register a hook in their constructor.
const std::map<std::string, HookKind>& HookRegistrars() {
  static const std::map<std::string, HookKind> t{
      {"c10::impl::DeviceGuardImplRegistrar", {"DeviceGuardImpl", ""}},
      {"c10::AllocatorRegisterer", {"Allocator", ""}},
      {"at::HostAllocatorRegistry", {"HostAllocator", ""}},
      {"at::_GeneratorRegister", {"Generator", "PrivateUse1"}},
  };
  return t;
}

// The device type a registrar's template argument names
// (AllocatorRegisterer<c10::DeviceType::PrivateUse1>).
std::string DeviceTemplateArg(const CXXRecordDecl* rd) {
  const auto* spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(rd);
  if (!spec) return "";
  for (const auto& arg : spec->getTemplateArgs().asArray()) {
    if (arg.getKind() != TemplateArgument::Integral) continue;
    const auto* et = arg.getIntegralType()->getAs<EnumType>();
    if (!et) continue;
    for (const EnumConstantDecl* c : et->getDecl()->enumerators())
      if (c->getInitVal() == arg.getAsIntegral()) return c->getName().str();
  }
  return "";
}

class HookCallback : public MatchFinder::MatchCallback {
 public:
  explicit HookCallback(ReaderContext& ctx) : ctx_(ctx) {}

  void run(const MatchFinder::MatchResult& result) override {
    if (const auto* call = result.Nodes.getNodeAs<CallExpr>("call")) {
      const FunctionDecl* fd = call->getDirectCallee();
      if (!fd || !ctx_.IsOwn(call->getBeginLoc())) return;
      std::string name = fd->getQualifiedNameAsString();
      auto hook = HookFunctions().find(name);
      if (hook == HookFunctions().end()) return;
      std::string device;
      if (call->getNumArgs() > 0)
        device = EnumConstant(call->getArg(0), "c10::DeviceType").value_or("");
      Add(call->getBeginLoc(), fd->getNameAsString(), hook->second, device,
          call->getNumArgs() > 0
              ? ctx_.Text(call->getArg(call->getNumArgs() > 1 ? 1 : 0)->getSourceRange())
              : "");
    } else if (const auto* var = result.Nodes.getNodeAs<VarDecl>("var")) {
      const auto* rd = result.Nodes.getNodeAs<CXXRecordDecl>("registrar");
      if (!rd || !ctx_.IsOwn(var->getLocation())) return;
      auto hook = HookRegistrars().find(rd->getQualifiedNameAsString());
      if (hook == HookRegistrars().end()) return;
      std::string device = DeviceTemplateArg(rd);
      if (device.empty() && var->getInit())
        device = EnumConstant(var->getInit(), "c10::DeviceType").value_or("");
      Add(var->getLocation(), rd->getNameAsString(), hook->second, device, "");
    }
  }

 private:
  void Add(SourceLocation loc, const std::string& mechanism, const HookKind& hook,
           const std::string& device, const std::string& kernel) {
    Where w = ctx_.Locate(loc);
    Registration r;
    r.kind = Kind::kHook;
    r.symbol = hook.symbol;
    r.dispatch_key = device.empty() ? hook.default_key : DeviceTypeKey(device);
    r.mechanism = w.macro.empty() ? mechanism : w.macro;
    r.file = w.file;
    r.line = w.line;
    r.kernel = kernel;
    ctx_.Add(std::move(r));
  }

  ReaderContext& ctx_;
};

}  // namespace

void AddHookMatchers(MatchFinder& finder, ReaderContext& ctx, Callbacks& owned) {
  owned.push_back(std::make_unique<HookCallback>(ctx));
  // hasAnyName takes StringRefs: the names live in these statics.
  static const std::vector<std::string> function_names = [] {
    std::vector<std::string> v;
    for (const auto& [name, _] : HookFunctions()) v.push_back("::" + name);
    return v;
  }();
  static const std::vector<std::string> registrar_names = [] {
    std::vector<std::string> v;
    for (const auto& [name, _] : HookRegistrars()) v.push_back("::" + name);
    return v;
  }();
  std::vector<llvm::StringRef> functions(function_names.begin(), function_names.end());
  std::vector<llvm::StringRef> registrars(registrar_names.begin(), registrar_names.end());
  finder.addMatcher(callExpr(callee(functionDecl(hasAnyName(functions)))).bind("call"),
                    owned.back().get());
  finder.addMatcher(varDecl(hasType(hasUnqualifiedDesugaredType(recordType(hasDeclaration(
                                cxxRecordDecl(hasAnyName(registrars)).bind("registrar"))))))
                        .bind("var"),
                    owned.back().get());
}

}  // namespace testmap::backend::clang_reader
