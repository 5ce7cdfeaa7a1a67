// What a test_suite_config does to one instantiated test, decided the way
// torch-spyre's test framework decides it (docs/config.md), in one place:
// `config explain`, `config generate`'s round trip, the testmap_select
// plugin and admission's dtype rules all call this.
//
//   1. The file entry: the first whose path (after the root token, a glob)
//      names the test's file. No entry: the config does not govern it.
//   2. The test entry: by the generic method name alone (the class part is
//      ignored, as the framework does); exact names first, then patterns
//      (regex matched at the start of the name, or a glob); among several,
//      the last in the file wins (the framework's dict keeps the last).
//   3. The mode: the entry's (default mandatory_success), else the file's
//      unlisted_test_mode (default xfail).
//   4. Dtype rules (DtypeRule below) and OpInfo/ModuleInfo filters turn the
//      variant into a skip; force_xfail turns mandatory_success into xfail.
#pragma once

#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "mapper/config/config_model.h"

namespace testmap::config {

// What the rules need to know of a test (from its scan record).
struct TestFacts {
  std::string file;            // `test/test_ops.py`, as node ids spell it
  std::string generic_method;  // `test_add` (the template's method name)
  std::vector<std::string> dtypes;
  std::string opinfo;  // params.op of an @ops test
  std::string module;  // params.module of a @modules test (`nn.Linear`)
};

// The dtype rules of admission and of a config: a dtype of the test passes
// when it is in the entry's include list, or (not excluded and) within the
// global ceiling and the OpInfo's own dtypes.
struct DtypeRule {
  std::optional<std::set<std::string>> ceiling;                // global.supported_dtypes
  std::map<std::string, std::set<std::string>> opinfo_dtypes;  // supported_ops[].dtypes
  std::set<std::string> include, exclude;                      // the test entry's edits
  std::string ceiling_source = "global.supported_dtypes";
};

// "" when every dtype passes, else why the first that fails does not
// ("dtype int64 is not in global.supported_dtypes").
std::string DtypeBlock(const DtypeRule& rule, const std::vector<std::string>& dtypes,
                       const std::string& opinfo);

struct Decision {
  bool governed = false;  // a file entry names the test's file
  Mode mode = kUnlistedDefaultMode;
  const FileEntry* file = nullptr;
  const TestEntry* entry = nullptr;  // null: unlisted
  const TestName* name = nullptr;    // the name of `entry` that matched
  // Why this mode, for people: "TestX::test_y at cfg.yaml:12",
  // "unlisted_test_mode at cfg.yaml:4", "default unlisted_test_mode".
  std::string decided_by;
  // Set when a rule of step 4 made it a skip or an xfail.
  std::string rule;
};

class ConfigRules {
 public:
  // `root_token` is what a config path starts with for the directory node
  // ids are relative to (`${TORCH_ROOT}` for PyTorch, whose ids start with
  // `test/`).
  ConfigRules(const Config& config, std::string root_token);

  Decision Decide(const TestFacts& test) const;

  // The file entry governing `file`, or null.
  const FileEntry* FileFor(const std::string& file) const;
  // The entry of `file` for a generic method, or null; `matched` is set to
  // the name that matched.
  const TestEntry* EntryFor(const FileEntry& file, const std::string& method,
                            const TestName** matched = nullptr) const;
  // Step 4's skips for a test of `entry` (null: unlisted): why the dtype
  // rule or an OpInfo/ModuleInfo filter skips it, or "".
  std::string SkipRule(const TestEntry* entry, const TestFacts& test) const;
  // The dtype rule for a test of `entry` (null: unlisted).
  DtypeRule DtypeRuleFor(const TestEntry* entry) const;
  // Whether a (file entry's) path matches `file`.
  bool PathMatches(const std::string& config_path, const std::string& file) const;
  // Whether a pattern name matches `method` (exact names compare equal).
  bool NameMatches(const TestName& name, const std::string& method) const;

  const Config& config() const { return config_; }
  const std::string& root_token() const { return root_token_; }

 private:
  struct FileIndex {
    std::map<std::string, std::pair<const TestEntry*, const TestName*>> exact;
    std::vector<std::pair<const TestEntry*, const TestName*>> patterns;  // file order
  };
  const Config& config_;
  std::string root_token_;
  std::vector<FileIndex> files_;
  std::map<const TestName*, std::optional<std::regex>> regexes_;
  DtypeRule global_rule_;
};

// Glob matching as fnmatch does, with `**` crossing directories.
bool GlobMatch(const std::string& pattern, const std::string& text);

}  // namespace testmap::config
