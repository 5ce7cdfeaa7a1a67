// Reading the values a registration is made of out of the AST: the
// operator name (a literal, possibly inside TORCH_SELECTIVE_NAME or built
// by a macro's `#op "." #overload`), dispatch keys and device types, and
// the kernel handed over. Everything is read from the expansion, never
// from the spelling.
#pragma once

#include <clang/AST/Expr.h>
#include <clang/AST/Type.h>

#include <optional>
#include <string>
#include <vector>

namespace testmap::backend::clang_reader {

// The string an argument evaluates to, when it is a literal: a string
// literal, a SelectiveStr/torch::schema wrapper around one, or a constant
// variable initialized with one.
std::optional<std::string> StringValue(const clang::Expr* e);

// The name of the first `enum_name` enumerator the expression refers to
// (`PrivateUse1` in `c10::DispatchKey::PrivateUse1`,
// `std::make_optional(c10::DispatchKey::PrivateUse1)` or a ?: over it).
std::optional<std::string> EnumConstant(const clang::Stmt* e, const std::string& enum_name);

// The dispatch key a c10::DeviceType enumerator stands for at the
// dispatcher (`PrivateUse1` -> `PrivateUse1`, `CPU` -> `CPU`).
std::string DeviceTypeKey(const std::string& device_type);

struct KernelArg {
  std::string name;          // the function registered, when it can be named
  bool fallthrough = false;  // CppFunction::makeFallthrough()
  std::string key;           // torch::dispatch(KEY, fn): the key it names
};

// What a kernel argument (`fn`, `&ns::fn`, `TORCH_FN(fn)`, a lambda,
// `CppFunction::makeFromBoxedFunction<&fn>()`, `torch::dispatch(k, fn)`)
// registers.
KernelArg ReadKernel(const clang::Expr* e);

// The arguments written at the call (default arguments left out).
std::vector<const clang::Expr*> ExplicitArgs(const clang::CallExpr* call);

// True for `torch::Library`, `torch::Library&` and const forms.
bool IsLibrary(clang::QualType t);

// The function a DeclRefExpr-like expression names, qualified.
std::string QualifiedName(const clang::NamedDecl* d);

}  // namespace testmap::backend::clang_reader
