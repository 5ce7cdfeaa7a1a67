#include "analyzers/backend/registration.h"

#include <array>

#include "analyzers/backend/diagnostic.h"

namespace testmap::backend {
namespace {

constexpr std::array<std::pair<Kind, std::string_view>, 6> kKinds{{
    {Kind::kKernel, "kernel"},
    {Kind::kFallback, "fallback"},
    {Kind::kFallthrough, "fallthrough"},
    {Kind::kDefinition, "definition"},
    {Kind::kStub, "stub"},
    {Kind::kHook, "hook"},
}};

}  // namespace

std::string_view KindName(Kind k) {
  for (const auto& [kind, name] : kKinds)
    if (kind == k) return name;
  return "kernel";
}

std::optional<Kind> ParseKind(std::string_view name) {
  for (const auto& [kind, n] : kKinds)
    if (n == name) return kind;
  return std::nullopt;
}

std::string_view EvidenceName(Evidence e) { return e == Evidence::kRuntime ? "runtime" : "static"; }

std::optional<Evidence> ParseEvidence(std::string_view name) {
  if (name == "static") return Evidence::kStatic;
  if (name == "runtime") return Evidence::kRuntime;
  return std::nullopt;
}

bool InDispatcher(Kind k) { return k != Kind::kStub && k != Kind::kHook; }

bool OutputOrder(const Registration& a, const Registration& b) {
  return std::tie(a.dispatch_key, a.op, a.kind, a.symbol, a.file, a.line) <
         std::tie(b.dispatch_key, b.op, b.kind, b.symbol, b.file, b.line);
}

std::string FormatDiagnostic(const Diagnostic& d) {
  std::string out = d.file.empty() ? "testmap backend" : d.file;
  if (d.line > 0) out += ":" + std::to_string(d.line);
  out += d.severity == Diagnostic::Severity::kError ? ": error: " : ": warning: ";
  out += d.message;
  return out;
}

}  // namespace testmap::backend
