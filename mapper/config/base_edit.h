// `config generate --base CONFIG`: the existing config kept where the
// evidence agrees with it, edited in place where it does not. yaml-cpp
// drops comments on reading, so the base's text is kept as written and
// only the spans that change are replaced: a test entry whose mode or
// exclusions the evidence contradicts is rewritten, a generic test the
// base does not list is appended to its file's tests, a file it does not
// list is appended to its files. An entry shared by several names (or
// matched by a pattern) is kept and the disagreement reported instead.
// Tests without evidence never count as disagreeing.
#pragma once

#include <string>
#include <vector>

#include "mapper/admit/admission.h"
#include "mapper/config/config_generate.h"
#include "mapper/config/config_model.h"

namespace testmap::config {

struct BaseEdit {
  std::string text;                  // the edited config
  std::vector<std::string> changes;  // one line per change or kept disagreement
};

// `base` was read from `base_text`. Throws core::InputError when the base's
// layout cannot take an edit (a flow-style list where an entry must go).
BaseEdit EditBase(const std::string& base_text, const Config& base,
                  const GeneratedConfig& generated, const admit::Admission& admission,
                  const std::string& root_token);

}  // namespace testmap::config
