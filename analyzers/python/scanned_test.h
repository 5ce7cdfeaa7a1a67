// What `testmap scan` says about one test file: the tests pytest would
// collect from it, each tied to its generic test and parameters, and the
// problems met on the way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace testmap::python {

// The parameters that made an instantiated test out of its generic test.
struct TestParams {
  std::string device;               // "cpu", "cuda", a privateuse1 name; empty if agnostic
  std::vector<std::string> dtypes;  // torch names, in the order of the id suffix
  std::string op;                   // OpInfo name (`nn.functional.conv2d`), if @ops
  std::string op_variant;           // OpInfo variant_test_name, if any
  std::string module;               // ModuleInfo name (`nn.Linear`), if @modules
  std::optional<bool> training;     // @modules train/eval mode, when it is a parameter
  // @parametrize / pytest.mark.parametrize values: argument name -> the value
  // as written in the source (or its evaluated repr when known).
  std::vector<std::pair<std::string, std::string>> values;
};

// Decorator texts in records are cut to this length: a test made by a
// parametrize list of 50,000 values need not carry the whole list.
inline constexpr size_t kMaxDecoratorText = 240;

// Content identities (content_identity.h): short hashes of what a test's
// behaviour depends on, compared part by part by `testmap diff`. Empty
// where a part does not apply (entry and dtypes outside @ops/@modules).
struct ContentIds {
  std::string body, decorators, setup;  // per generic test
  std::string entry, dtypes;            // per instantiated id: the OpInfo/ModuleInfo
};

// A test's node id as pytest prints it: `path::cls::name`, or `path::name`
// for a test outside a class (`path` relative to the rootdir, '/'-separated).
inline std::string NodeId(std::string_view path, std::string_view cls, std::string_view name) {
  std::string id;
  id.reserve(path.size() + cls.size() + name.size() + 4);
  id += path;
  if (!cls.empty()) (id += "::") += cls;
  return (id += "::") += name;
}

// One test as `pytest --collect-only -q` would list it.
struct TestRecord {
  std::string nodeid;          // `test_x.py::TestXCPU::test_add_cpu_float32`
  std::string generic_id;      // `test_x.py::TestX::test_add`
  std::string cls;             // collected class (`TestXCPU`), empty for functions
  std::string method;          // collected name (`test_add_cpu_float32`, `test_f[1-a]`)
  std::string generic_class;   // template class (`TestX`), empty for functions
  std::string generic_method;  // function as defined (`test_add`)
  std::string kind;            // device_type | parametrized | unittest | pytest
  int line_start = 0;          // 1-based, decorators included
  int line_end = 0;
  TestParams params;
  // As written, without '@', whitespace collapsed, cut to kMaxDecoratorText
  // characters (ending "...").
  std::vector<std::string> decorators;
  std::vector<std::string> skips;  // skip/only/xfail conditions as written
  std::string source_hash;         // normalized source of the generic test (hex)
  ContentIds content;
};

struct Diagnostic {
  enum class Severity { kWarning, kError };
  Severity severity = Severity::kWarning;
  int line = 0;  // 1-based; 0 when not tied to a line
  std::string message;
};

// The scan of one file. `skipped` means the file could not be analysed at
// all (unreadable, not UTF-8, syntax error, too large); its tests are then
// unknown.
struct FileScan {
  std::string path;  // relative to the scan root, '/'-separated, as in node ids
  std::vector<TestRecord> tests;
  std::vector<Diagnostic> diagnostics;
  bool skipped = false;
  // Some tests pytest would collect may be missing or unsure (a decorator
  // that could not be evaluated, torch metadata unavailable, import-time
  // code not followed); the warnings say where.
  bool incomplete = false;
};

}  // namespace testmap::python
