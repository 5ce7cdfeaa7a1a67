// `testmap diff OLD NEW` (docs/diff.md): the delta a new version of the
// test suite (a PyTorch upgrade, a branch) brings, at the level backend
// configs use (generic tests) and the level CI runs (instantiated ids),
// with what must be re-traced and, given a config, what it does to it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "mapper/diff/config_effect.h"
#include "mapper/diff/delta.h"
#include "mapper/diff/diff_side.h"

namespace testmap::diff {

struct DiffRequest {
  std::string old_path, new_path;
  SideOptions old_options, new_options;
  std::string config;  // a test_suite_config, or ""
  std::string root_token = "${TORCH_ROOT}";
};

struct DiffResult {
  Side old_side, new_side;
  Delta delta;
  std::optional<ConfigEffect> config;
  double delta_seconds = 0;  // the comparison itself, sides read
  // Either side partial: tests may be missing from it, and their absence
  // reads as removed or added.
  bool partial() const { return old_side.partial || new_side.partial; }
};

// Reads both sides (at once), compares them, and applies the config.
// Throws core::InputError for bad input (file and line named).
DiffResult RunDiff(const DiffRequest& request);

enum class DiffFormat { kTable, kJson, kJsonl, kNodeids };

// kNodeids: the ids to re-trace (GenericDelta::retrace), one a line.
// kJsonl: one object per changed generic test. kJson: the whole answer.
void RenderDiff(const DiffResult& result, DiffFormat format, std::ostream& out);

// The kJson answer as a document (format testmap-diff/1: old, new, counts,
// seconds, generics, config, problems), for front ends that are not a
// stream (the MCP `diff` tool); `with_generics` false leaves `generics` out.
nlohmann::ordered_json DiffJson(const DiffResult& result, bool with_generics = true);
// One entry of its `generics` (and one kJsonl line).
nlohmann::ordered_json GenericDeltaJson(const GenericDelta& delta);

}  // namespace testmap::diff
