// Reading test_suite_config files: real-shaped configs read cleanly into the
// model, every bad input is a diagnostic at the line and column of the
// value it is about, unknown keys warn (strict: error).
#include "mapper/config/config_reader.h"

#include <gtest/gtest.h>

#include <tuple>

#include "core/errors.h"
#include "mapper/config/config_rules.h"

namespace testmap::config {
namespace {

// The shapes backends write (torch-spyre's configs): labels, tags, edits
// of every kind, precision, cpu_move, force_xfail, plain-string ops,
// input_config, a regex name.
const char* kRealShaped = R"(test_suite_config:
  labels: [regression, trunk]
  files:
    - path: ${TORCH_ROOT}/test/test_binary_ufuncs.py
      unlisted_test_mode: skip
      tests:
        - names:
            - TestBinaryUfuncs::test_scalar_support
            - TestBinaryUfuncs::test_contig_vs_transposed
          mode: xfail
          tags: [model_1, model_2]
          edits:
            ops:
              include:
                - name: add
                  description: inject add
              exclude:
                - name: gcd
            dtypes:
              include: [{name: float32}]
              exclude:
                - name: bfloat16
                  description: unsupported here
            functions:
              cpu_move:
                - name: assertEqual
        - names: [MyTestClass::test_new_feature.*]
          mode: mandatory_success
          no_grad: true
          labels: [unit]
    - path: ${TORCH_DEVICE_ROOT}/tests/inductor/test_x.py
      unlisted_test_mode: mandatory_success
  global:
    supported_dtypes:
      - name: float16
        precision: {atol: 1e-3, rtol: 1e-3}
      - name: float32
        force_xfail: true
    supported_ops:
      - name: add
        dtypes:
          - name: float16
      - mul
      - name: gcd
        force_xfail: true
    supported_modules:
      - name: torch.nn.Linear
    input_config:
      seed: 42
)";

ReadResult Parse(const std::string& text, bool strict = false) {
  return ParseConfig(text, "cfg.yaml", ReadOptions{strict});
}

TEST(ConfigReader, RealShapedConfigReadsIntoTheModel) {
  ReadResult r = Parse(kRealShaped);
  for (const auto& d : r.diagnostics) ADD_FAILURE() << d.ToString();
  const Config& c = r.config;
  ASSERT_EQ(c.files.size(), 2u);
  EXPECT_EQ(c.labels, (std::vector<std::string>{"regression", "trunk"}));
  const FileEntry& f = c.files[0];
  EXPECT_EQ(f.path, "${TORCH_ROOT}/test/test_binary_ufuncs.py");
  EXPECT_EQ(f.unlisted_test_mode, Mode::kSkip);
  EXPECT_EQ(f.mark.line, 4);
  ASSERT_EQ(f.tests.size(), 2u);
  const TestEntry& e = f.tests[0];
  ASSERT_EQ(e.names.size(), 2u);
  EXPECT_EQ(e.names[0].cls, "TestBinaryUfuncs");
  EXPECT_EQ(e.names[0].method, "test_scalar_support");
  EXPECT_EQ(e.names[0].mark.line, 8);
  EXPECT_EQ(e.names[0].mark.column, 15);
  EXPECT_FALSE(e.names[0].pattern);
  EXPECT_EQ(e.mode, Mode::kXfail);
  EXPECT_EQ(e.tags, (std::vector<std::string>{"model_1", "model_2"}));
  EXPECT_EQ(e.edits.ops.include[0].name, "add");
  EXPECT_EQ(e.edits.ops.include[0].description, "inject add");
  EXPECT_EQ(e.edits.ops.exclude[0].name, "gcd");
  EXPECT_EQ(e.edits.dtypes.exclude[0].name, "bfloat16");
  EXPECT_EQ(e.edits.cpu_move[0].name, "assertEqual");
  EXPECT_TRUE(f.tests[1].names[0].pattern);
  EXPECT_TRUE(f.tests[1].no_grad);
  EXPECT_FALSE(c.files[1].tests.size());
  EXPECT_EQ(c.global.supported_dtypes[0].precision->atol, 1e-3);
  EXPECT_TRUE(c.global.supported_dtypes[1].force_xfail);
  ASSERT_TRUE(c.global.supported_ops);
  EXPECT_EQ((*c.global.supported_ops)[1].name, "mul");  // a plain string
  EXPECT_EQ((*c.global.supported_ops)[0].dtypes[0].name, "float16");
  EXPECT_TRUE((*c.global.supported_ops)[2].force_xfail);
  EXPECT_EQ(c.global.seed, 42);
}

// The one diagnostic a bad input gives: severity, line, column, message.
void ExpectOne(const std::string& text, Diagnostic::Severity s, int line, int column,
               const std::string& says, bool strict = false) {
  ReadResult r = Parse(text, strict);
  ASSERT_EQ(r.diagnostics.size(), 1u) << text;
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.severity, s) << d.ToString();
  EXPECT_EQ(d.mark.line, line) << d.ToString();
  EXPECT_EQ(d.mark.column, column) << d.ToString();
  EXPECT_NE(d.message.find(says), std::string::npos) << d.ToString();
  EXPECT_EQ(d.ToString().rfind(
                "cfg.yaml:" + std::to_string(line) + ":" + std::to_string(column) + ": ", 0),
            0u)
      << d.ToString();
}

constexpr auto kError = Diagnostic::Severity::kError;
constexpr auto kWarning = Diagnostic::Severity::kWarning;

TEST(ConfigReader, BadInputNamesLineAndColumn) {
  ExpectOne("test_suite_config:\n  files:\n    - path: [unclosed\n", kError, 4, 1,
            "malformed YAML");
  ExpectOne("test_suite_config:\n  files:\n    - path: a.py\n      mode_typo: skip\n", kWarning, 4,
            7, "unknown key `mode_typo`");
  ExpectOne("test_suite_config:\n  files:\n    - path: a.py\n      mode_typo: skip\n", kError, 4, 7,
            "unknown key `mode_typo`", /*strict=*/true);
  ExpectOne(
      "test_suite_config:\n  files:\n    - path: a.py\n      tests:\n        - names: [A::b]\n"
      "          mode: must_pass\n",
      kError, 6, 17, "unknown mode `must_pass`");
  ExpectOne(
      "test_suite_config:\n  files:\n    - path: a.py\n      tests:\n        - names:\n"
      "            - test_x.py::TestA::test_b\n",
      kError, 6, 15, "has 3 parts");
  ExpectOne(
      "test_suite_config:\n  files: []\n  global:\n    supported_dtypes:\n      - name: float33\n",
      kError, 5, 15, "`float33` in global.supported_dtypes is not a dtype torch has");
  ExpectOne("test_suite_config:\n  files: []\n  files: []\n", kError, 3, 3,
            "duplicate key `files`");
  ExpectOne("test_suite_config:\n  files:\n    - unlisted_test_mode: skip\n", kError, 3, 7,
            "needs a `path`");
  ExpectOne("- a\n", kError, 1, 1, "a config is a mapping");
  ExpectOne(
      "test_suite_config:\n  files:\n    - path: a.py\n      tests:\n        - names: [A::b]\n"
      "          tags: [model-1]\n",
      kWarning, 6, 17, "not a Python identifier");
}

// A config that cannot be used throws core::InputError with its line, for
// front ends that read e.line() (the MCP server's tool errors); the message
// names the column as well, as the CLI prints it.
TEST(ConfigReader, ConfigOrThrowCarriesTheLine) {
  for (auto [text, line, where] :
       {std::tuple{"test_suite_config:\n  files:\n    - path: [unclosed\n", 4,
                   ":4:1: malformed YAML"},
        std::tuple{"test_suite_config:\n  files:\n    - path: a.py\n      tests:\n        - names: "
                   "[A::b]\n          mode: must_pass\n",
                   6, ":6:17: unknown mode `must_pass`"}}) {
    try {
      ConfigOrThrow(ParseConfig(text, "bad.yaml"));
      ADD_FAILURE() << "no error for " << text;
    } catch (const core::InputError& e) {
      EXPECT_EQ(e.file(), "bad.yaml");
      EXPECT_EQ(e.line(), line) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind(std::string("bad.yaml") + where, 0), 0u) << e.what();
    }
  }
}

TEST(ConfigReader, EveryProblemIsListedInOneRead) {
  ReadResult r = Parse(
      "test_suite_config:\n  files:\n    - path: a.py\n      unlisted_test_mode: sometimes\n"
      "      tests:\n        - names: [A::b::c, B::d]\n          mode: nope\n");
  ASSERT_EQ(r.diagnostics.size(), 3u);
  EXPECT_TRUE(r.HasErrors());
  ASSERT_EQ(r.config.files[0].tests[0].names.size(), 1u);  // B::d survives
}

}  // namespace
}  // namespace testmap::config
