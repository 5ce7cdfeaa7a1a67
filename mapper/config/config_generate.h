// `testmap config generate`: a test_suite_config from an admission
// (mapper/admit) and the backend's own outcomes, one entry per generic
// test (per method name: classes of one file sharing a method share it), each with a comment that
// says why:
//   admitted, passed on the backend's runs        -> mandatory_success
//   admitted, failed there                         -> xfail
//   admitted, never run there                      -> `unrun_mode` (xfail by default)
//   some variants blocked                          -> edits.dtypes.exclude / edits.ops.exclude
//                                                     of the dtypes / OpInfos no admitted
//                                                     variant has
//   every variant blocked                          -> skip, the missing operators named
//   no evidence at all                             -> left to unlisted_test_mode (skip), named
//                                                     in a comment
// Variants that differ by something a config cannot select (a @parametrize
// value) while some are admitted and some not make the entry `xfail` (the
// admitted ones run, the blocked ones may fail) and are reported as
// inexact. Every other test gets from `config explain` of the output
// exactly the mode its admission implies (`intended`).
//
// Output is stable: the same admission gives the same bytes. Values are
// written by yaml-cpp; comments go on their own line above what they
// explain (yaml-cpp's emitter can only append them to a line).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "mapper/admit/admission.h"
#include "mapper/config/config_model.h"

namespace testmap::config {

struct GenerateRequest {
  std::string root_token = "${TORCH_ROOT}";
  Mode unrun_mode = Mode::kXfail;
  // The config the capabilities came from (--supported CONFIG), or null: its
  // global section and per-test dtype includes carry over (without
  // force_xfail: modes come from the evidence here).
  const Config* supported = nullptr;
};

struct GeneratedEntry {
  // `Class::method`, one per generic class with this method: the framework
  // looks entries up by the method alone, so one entry speaks for them all.
  std::vector<std::string> names;
  std::string method;
  Mode mode = Mode::kMandatorySuccess;
  std::vector<std::string> comment;  // lines, without `# `
  std::vector<NamedItem> include_ops, exclude_ops, include_dtypes, exclude_dtypes;
  bool inexact = false;
};

struct GeneratedFile {
  std::string file;  // as node ids spell it
  std::string path;  // root token + "/" + file
  std::vector<GeneratedEntry> entries;
  std::vector<std::string> unlisted;  // comment lines for tests left to unlisted_test_mode
};

struct GeneratedConfig {
  std::vector<std::string> header;  // comment lines at the top
  std::vector<GeneratedFile> files;
  Global global;
  // What `config explain` of this config gives each test (by node id), and
  // the tests for which that differs from their admission.
  std::map<std::string, Mode> intended;
  std::set<std::string> inexact;
  // Tests a config cannot name: only traced, never scanned (no generic
  // test), or module-level test functions (no class for `Class::method`).
  size_t untraced_generic = 0, classless = 0;
};

GeneratedConfig PlanConfig(const admit::Admission& admission, const GenerateRequest& request);

// The YAML text of a generated config.
std::string EmitConfig(const GeneratedConfig& config);
// One test entry (`- names: ...`) indented by `indent` spaces, with its
// comment lines above it; what `--base` splices into an existing file.
std::string EmitEntry(const GeneratedEntry& entry, int indent);
// One file entry (`- path: ...`) with its tests, indented by `indent`.
std::string EmitFileEntry(const GeneratedFile& file, int indent);

}  // namespace testmap::config
