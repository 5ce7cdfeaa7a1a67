// A backend test config in the test_suite_config schema (the YAML that
// torch-spyre's test framework reads; docs/config.md), as read from a
// file: every value keeps the mark (line, column) it was read at, so that
// `config check` can name it and `config generate --base` can edit it in
// place.
//
//   test_suite_config:
//     labels: [...]
//     files:
//       - path: ${TORCH_ROOT}/test/test_view_ops.py
//         unlisted_test_mode: skip          # default xfail, as the framework's code has it
//         tests:
//           - names: [TestOldViewOps::test_broadcast_to]   # generic Class::method
//             mode: mandatory_success        # default for a listed test
//             tags: [...]; labels: [...]; no_grad: true
//             edits: {ops|dtypes|modules: {include: [{name, description}], exclude: [...]},
//                     functions: {cpu_move: [{name}]}}
//     global:
//       supported_dtypes: [{name, precision: {atol, rtol}, force_xfail}]
//       supported_ops: [{name (an OpInfo name), force_xfail, dtypes: [...]}]
//       supported_modules: [{name (torch.nn.Linear), force_xfail, dtypes}]
//       input_config: {seed}
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::config {

// 1-based; 0 when not read from a file (a generated entry).
struct Mark {
  int line = 0, column = 0;
  size_t offset = 0;  // byte offset of the value in the file
};

enum class Mode { kMandatorySuccess, kXfail, kXfailStrict, kSkip };
const char* ModeName(Mode m);  // mandatory_success | xfail | xfail_strict | skip
std::optional<Mode> ParseMode(std::string_view text);
// What the framework applies where the config says nothing.
inline constexpr Mode kListedDefaultMode = Mode::kMandatorySuccess;
inline constexpr Mode kUnlistedDefaultMode = Mode::kXfail;

struct Precision {
  std::optional<double> atol, rtol;
};

// An entry of an include/exclude list, supported_dtypes, supported_ops,
// supported_modules, cpu_move: `{name, description?, ...}` or a bare name.
struct NamedItem {
  std::string name;  // dtypes canonical (core/dtype_names.h); others as written
  std::string description;
  Mark mark;
  std::optional<Precision> precision;
  bool force_xfail = false;
  std::vector<NamedItem> dtypes;  // supported_ops / supported_modules entries only
};

struct IncludeExclude {
  std::vector<NamedItem> include, exclude;
};

struct Edits {
  IncludeExclude ops, dtypes, modules;
  std::vector<NamedItem> cpu_move;  // edits.functions.cpu_move
};

// One name of a test entry: `Class::method`, matched on the method alone
// (the framework ignores the class at lookup). A method with characters
// other than [A-Za-z0-9_] is a pattern: a regex matched at the start of the
// generic method name (Python's re.match), or a glob where it is no regex.
struct TestName {
  std::string text;  // as written
  std::string cls, method;
  bool pattern = false;
  Mark mark;
};

struct TestEntry {
  std::vector<TestName> names;
  std::optional<Mode> mode;  // absent: kListedDefaultMode
  Mark mark;                 // the entry's first key
  Mark mode_mark;            // the mode value, when given
  std::vector<std::string> tags, labels;
  bool no_grad = false;
  Edits edits;

  Mode EffectiveMode() const { return mode.value_or(kListedDefaultMode); }
};

struct FileEntry {
  std::string path;  // as written: `${TORCH_ROOT}/test/test_x.py`, globs allowed
  Mark mark;         // the path value
  Mark entry_mark;   // the entry's first key
  std::optional<Mode> unlisted_test_mode;  // absent: kUnlistedDefaultMode
  Mark unlisted_mark;
  std::vector<TestEntry> tests;
  Mark tests_mark;  // the `tests` list, when given
};

struct Global {
  bool present = false;
  Mark mark;
  std::vector<NamedItem> supported_dtypes;                  // empty: no dtype filtering
  std::optional<std::vector<NamedItem>> supported_ops;      // absent: no op filtering
  std::optional<std::vector<NamedItem>> supported_modules;  // absent: no module filtering
  std::optional<long long> seed;                            // input_config.seed
};

struct Config {
  std::string path;  // the file it was read from
  std::vector<std::string> labels;
  std::vector<FileEntry> files;
  Mark files_mark;
  Global global;
};

// A problem found reading or checking a config: `path:line:column: message`.
struct Diagnostic {
  enum class Severity { kError, kWarning };
  Severity severity = Severity::kError;
  std::string path;
  Mark mark;
  std::string message;

  std::string ToString() const;  // "path:line:column: error: message"
};

}  // namespace testmap::config
