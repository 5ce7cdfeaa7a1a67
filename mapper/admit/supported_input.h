// `--supported FILE`: backend records (`testmap backend scan|dump` output,
// JSON Lines or a document) or a test_suite_config (YAML), told apart by
// content. A config gives its global section as capabilities and its
// per-test dtype edits as rules (admission.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mapper/admit/capabilities.h"
#include "mapper/config/config_model.h"

namespace testmap::admit {

struct Supported {
  Capabilities caps;
  std::optional<config::Config> config;
  std::vector<config::Diagnostic> warnings;  // what reading the config warned about
};

// Throws core::InputError naming the file (and line) of bad input.
Supported ReadSupported(const std::string& path, const std::string& dispatch_key);

}  // namespace testmap::admit
