// The test_suite_config reader is linear in the file: 4n test entries take
// about 4 times as long as n (tests/support/growth.h). Real backend configs
// list thousands of tests.
#include <gtest/gtest.h>

#include "mapper/config/config_reader.h"
#include "tests/support/growth.h"

namespace testmap::config {
namespace {

std::string Config(int n) {
  std::string s = "test_suite_config:\n  files:\n";
  for (int f = 0; f * 100 < n; ++f) {
    s += "    - path: ${TORCH_ROOT}/test/test_f" + std::to_string(f) +
         ".py\n      unlisted_test_mode: skip\n      tests:\n";
    for (int i = f * 100; i < n && i < (f + 1) * 100; ++i) {
      s += "        - names: [TestC" + std::to_string(i % 7) + "::test_" + std::to_string(i) +
           "]\n          mode: " + (i % 3 ? "mandatory_success" : "xfail") +
           "\n          edits:\n            dtypes:\n              exclude: [{name: float16}]\n";
    }
  }
  return s;
}

TEST(ConfigGrowth, ReaderIsLinear) {
  testing::ExpectLinear("test_suite_config", 2000, Config, [](const std::string& text) {
    auto r = ParseConfig(text, "cfg.yaml");
    EXPECT_FALSE(r.HasErrors());
    size_t tests = 0;
    for (const auto& f : r.config.files) tests += f.tests.size();
    return tests;
  });
}

}  // namespace
}  // namespace testmap::config
