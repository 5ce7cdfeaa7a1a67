#include "analyzers/backend/cpp_prefilter.h"

#include <cctype>
#include <map>

namespace testmap::backend {
namespace {

// The names a registration is written with. Keep in step with the Clang
// reader's matchers (clang/*_matcher.cc): each API they read is here.
const char* const kRegistrationWords[] = {
    // Operator libraries and what lets registrations happen elsewhere.
    "TORCH_LIBRARY", "TORCH_LIBRARY_FRAGMENT", "TORCH_LIBRARY_IMPL", "TorchLibraryInit", "Library",
    // Autocast macros (they expand to m.impl, inside TORCH_LIBRARY_IMPL).
    "KERNEL_PRIVATEUSEONE", "KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE",
    // DispatchStub entries.
    "REGISTER_PRIVATEUSE1_DISPATCH", "REGISTER_CUDA_DISPATCH", "REGISTER_XPU_DISPATCH",
    "REGISTER_HPU_DISPATCH", "REGISTER_HIP_DISPATCH", "REGISTER_MPS_DISPATCH",
    "REGISTER_MTIA_DISPATCH", "REGISTER_DISPATCH",
    // Hooks, guards, allocators, generators.
    "RegisterPrivateUse1HooksInterface", "C10_REGISTER_GUARD_IMPL", "DeviceGuardImplRegistrar",
    "REGISTER_ALLOCATOR", "AllocatorRegisterer", "SetAllocator", "REGISTER_HOST_ALLOCATOR",
    "HostAllocatorRegistry", "setHostAllocator", "REGISTER_GENERATOR_PRIVATEUSE1",
    "_GeneratorRegister", "register_privateuse1_backend", "registerPrivateUse1Methods",
    "TensorBackendMetaRegistry"};

bool IdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `#define NAME ...` bodies (continuation lines joined), by name.
std::map<std::string, std::string> Defines(std::string_view text) {
  std::map<std::string, std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    size_t i = line.find_first_not_of(" \t");
    if (i != std::string_view::npos && line[i] == '#') {
      size_t d = line.find_first_not_of(" \t", i + 1);
      if (d != std::string_view::npos && line.substr(d, 6) == "define") {
        // Gather the whole directive across backslash continuations.
        std::string body(line.substr(d + 6));
        while (!body.empty() && (body.back() == '\\' || body.back() == '\r') && eol < text.size()) {
          body.pop_back();
          size_t next = text.find('\n', eol + 1);
          if (next == std::string_view::npos) next = text.size();
          body += ' ';
          body += text.substr(eol + 1, next - eol - 1);
          eol = next;
        }
        size_t n = body.find_first_not_of(" \t");
        if (n != std::string::npos && IdentStart(body[n])) {
          size_t e = n;
          while (e < body.size() && IdentChar(body[e])) ++e;
          out[body.substr(n, e - n)] = body.substr(e);
        }
      }
    }
    pos = eol + 1;
  }
  return out;
}

}  // namespace

void ForEachIdentifier(std::string_view text, const std::function<void(std::string_view)>& f) {
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == std::string_view::npos) return;
    } else if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      i = text.find("*/", i + 2);
      if (i == std::string_view::npos) return;
      i += 2;
    } else if (c == '"' || c == '\'') {
      for (++i; i < n && text[i] != c && text[i] != '\n'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (IdentStart(c)) {
      size_t s = i;
      while (i < n && IdentChar(text[i])) ++i;
      f(text.substr(s, i - s));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < n && IdentChar(text[i])) ++i;
    } else {
      ++i;
    }
  }
}

CppPrefilter::CppPrefilter(const std::vector<std::string_view>& texts) {
  for (const char* w : kRegistrationWords) words_.insert(w);
  std::map<std::string, std::string> defines;
  for (auto t : texts)
    for (auto& [name, body] : Defines(t)) defines[name] += " " + body;
  // A macro whose body names a registration word (or another such macro)
  // registers: iterate to a fixed point, since macros build on macros.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, body] : defines) {
      if (words_.count(name)) continue;
      bool registers = false;
      ForEachIdentifier(body, [&](std::string_view id) {
        registers = registers || words_.count(id) || id == "impl" || id == "fallback";
      });
      if (registers) {
        words_.insert(name);
        macros_.insert(name);
        grew = true;
      }
    }
  }
}

bool CppPrefilter::Matches(std::string_view text) const {
  bool found = false;
  ForEachIdentifier(text, [&](std::string_view id) {
    if (!found && words_.count(id)) found = true;
  });
  return found;
}

}  // namespace testmap::backend
