// The text prefilter of the C++ reader: only translation units that name a
// registration API (TORCH_LIBRARY*, REGISTER_*_DISPATCH, hook registrars,
// a torch::Library parameter) or a macro of the backend's own that expands
// to one are handed to Clang. The backend's macros are found first, in
// all of its files (headers included), so that a unit registering only
// through `MY_BACKEND_IMPL(op)` is never filtered out.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::backend {

class CppPrefilter {
 public:
  // `texts`: the contents of every C++ file of the backend.
  explicit CppPrefilter(const std::vector<std::string_view>& texts);

  // True when `text` uses a registration API or a macro expanding to one.
  bool Matches(std::string_view text) const;

  // Every word that marks registration code: torch's APIs and the
  // backend's macros over them, sorted.
  std::vector<std::string> Words() const { return {words_.begin(), words_.end()}; }
  // The backend's own macros among them.
  const std::set<std::string>& backend_macros() const { return macros_; }

 private:
  std::set<std::string, std::less<>> words_;  // heterogeneous: looked up by string_view
  std::set<std::string> macros_;
};

// The identifiers of `text`, in order, with comments and string literals
// skipped: what both the prefilter and macro discovery look at.
void ForEachIdentifier(std::string_view text, const std::function<void(std::string_view)>& f);

}  // namespace testmap::backend
