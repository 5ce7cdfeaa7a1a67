// The mode a config gives a test, rule by rule, as torch-spyre's framework
// decides it: names on the generic method (class ignored), regexes at the
// start of the name, globs, the last entry winning, the defaults (listed:
// mandatory_success, unlisted: xfail), dtype and OpInfo filters,
// force_xfail.
#include "mapper/config/config_rules.h"

#include <gtest/gtest.h>

#include "mapper/config/config_reader.h"

namespace testmap::config {
namespace {

Config Read(const std::string& text) {
  ReadResult r = ParseConfig(text, "cfg.yaml");
  for (const auto& d : r.diagnostics) ADD_FAILURE() << d.ToString();
  return r.config;
}

const char* kConfig = R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_binary_ufuncs.py
      unlisted_test_mode: skip
      tests:
        - names: [TestBinaryUfuncs::test_add]
          mode: xfail_strict
        - names: [WrongClass::test_mul]
        - names: [TestBinaryUfuncs::test_div_.*]
          mode: xfail
        - names: ["TestBinaryUfuncs::*_glob"]
          mode: skip
        - names: [TestBinaryUfuncs::test_pow]
          mode: xfail
        - names: [TestBinaryUfuncs::test_pow]
          edits:
            dtypes:
              exclude: [{name: int64}]
              include: [{name: complex64}]
        - names: [TestBinaryUfuncs::test_scalar_support]
          edits:
            ops:
              include: [{name: gcd}]
              exclude: [{name: sub}]
    - path: ${TORCH_ROOT}/test/nn/*.py
  global:
    supported_dtypes: [{name: float32}, {name: int64}, {name: float16, force_xfail: true}]
    supported_ops:
      - name: add
        dtypes: [{name: float32}]
      - name: sub
      - name: mul
        force_xfail: true
)";

Decision Decide(const Config& c, TestFacts f) { return ConfigRules(c, "${TORCH_ROOT}").Decide(f); }

TEST(ConfigRules, NamesMatchOnTheMethodAndTheLastEntryWins) {
  Config c = Read(kConfig);
  auto d = Decide(c, {"test/test_binary_ufuncs.py", "test_add", {"float32"}});
  EXPECT_TRUE(d.governed);
  EXPECT_EQ(d.mode, Mode::kXfailStrict);
  EXPECT_EQ(d.decided_by, "TestBinaryUfuncs::test_add at cfg.yaml:6");
  // The class part is ignored; a listed test without mode must pass.
  EXPECT_EQ(Decide(c, {"test/test_binary_ufuncs.py", "test_mul", {"int64"}}).mode,
            Mode::kMandatorySuccess);
  // A regex matches at the start of the method name (re.match).
  EXPECT_EQ(Decide(c, {"test/test_binary_ufuncs.py", "test_div_rounding", {}}).mode, Mode::kXfail);
  EXPECT_EQ(Decide(c, {"test/test_binary_ufuncs.py", "xtest_div_rounding", {}}).mode, Mode::kSkip);
  // No regex (`*_glob`): a glob.
  auto g = Decide(c, {"test/test_binary_ufuncs.py", "test_x_glob", {}});
  EXPECT_EQ(g.mode, Mode::kSkip);
  EXPECT_NE(g.decided_by.find("*_glob"), std::string::npos);
  // Two entries for test_pow: the last decides (mode default, its edits).
  auto p = Decide(c, {"test/test_binary_ufuncs.py", "test_pow", {"float32"}});
  EXPECT_EQ(p.mode, Mode::kMandatorySuccess);
  EXPECT_EQ(p.decided_by, "TestBinaryUfuncs::test_pow at cfg.yaml:15");
}

TEST(ConfigRules, DefaultsForUnlistedTestsAndFiles) {
  Config c = Read(kConfig);
  auto u = Decide(c, {"test/test_binary_ufuncs.py", "test_unlisted", {}});
  EXPECT_EQ(u.mode, Mode::kSkip);
  EXPECT_EQ(u.decided_by, "unlisted_test_mode at cfg.yaml:4");
  // A glob path; no unlisted_test_mode: the framework's default, xfail.
  auto n = Decide(c, {"test/nn/test_conv.py", "test_conv", {}});
  EXPECT_TRUE(n.governed);
  EXPECT_EQ(n.mode, Mode::kXfail);
  EXPECT_FALSE(Decide(c, {"test/test_other.py", "test_add", {}}).governed);
  EXPECT_FALSE(
      Decide(c, {"test/nn/sub/test_conv.py", "test_conv", {}}).governed);  // `*` stops at /
}

TEST(ConfigRules, DtypeRules) {
  Config c = Read(kConfig);
  auto pow = [&](const char* dtype) {
    return Decide(c, {"test/test_binary_ufuncs.py", "test_pow", {dtype}});
  };
  EXPECT_EQ(pow("int64").mode, Mode::kSkip);  // excluded, though in the ceiling
  EXPECT_EQ(pow("int64").rule, "dtype int64 is excluded by edits.dtypes.exclude");
  EXPECT_EQ(pow("complex64").mode, Mode::kMandatorySuccess);  // included past the ceiling
  EXPECT_EQ(pow("float64").rule, "dtype float64 is not in global.supported_dtypes");
  // force_xfail on a dtype flips mandatory_success to xfail, nothing else.
  EXPECT_EQ(pow("float16").mode, Mode::kXfail);
  EXPECT_EQ(Decide(c, {"test/test_binary_ufuncs.py", "test_add", {"float16"}}).mode,
            Mode::kXfailStrict);
  // Tuples: every dtype must pass.
  EXPECT_EQ(Decide(c, {"test/test_binary_ufuncs.py", "test_mul", {"float32", "float64"}}).mode,
            Mode::kSkip);
}

TEST(ConfigRules, OpInfoFilters) {
  Config c = Read(kConfig);
  auto ss = [&](const char* opinfo, const char* dtype) {
    return Decide(c, {"test/test_binary_ufuncs.py", "test_scalar_support", {dtype}, opinfo});
  };
  EXPECT_EQ(ss("add", "float32").mode, Mode::kMandatorySuccess);
  EXPECT_EQ(ss("add", "int64").rule, "dtype int64 is not in the dtypes of supported op add");
  EXPECT_EQ(ss("sub", "float32").rule, "OpInfo sub is excluded by edits.ops.exclude");
  EXPECT_EQ(ss("gcd", "int64").mode, Mode::kMandatorySuccess);  // edits.ops.include
  EXPECT_EQ(ss("div", "float32").rule, "OpInfo div is not in global.supported_ops");
  auto mul = ss("mul", "float32");
  EXPECT_EQ(mul.mode, Mode::kXfail);
  EXPECT_EQ(mul.rule, "supported op mul has force_xfail");
}

// Config paths name files from PyTorch's root; node ids name them from
// pytest's rootdir, the repo root or test/ itself: both join, whichever
// root token the config uses.
TEST(ConfigRules, ConfigPathsJoinIdsFromEitherRootdir) {
  Config c = Read(kConfig);
  for (const char* file : {"test/test_binary_ufuncs.py", "test_binary_ufuncs.py"}) {
    EXPECT_EQ(Decide(c, {file, "test_unlisted", {}}).mode, Mode::kSkip) << file;
    EXPECT_TRUE(ConfigRules(c, "${TORCH_ROOT}/test").FileFor(file)) << file;
  }
  EXPECT_TRUE(Decide(c, {"nn/test_conv.py", "test_conv", {}}).governed);
  EXPECT_FALSE(Decide(c, {"other/test_binary_ufuncs.py", "test_unlisted", {}}).governed);
  EXPECT_FALSE(Decide(c, {"test_other.py", "test_unlisted", {}}).governed);
}

TEST(ConfigRules, Globs) {
  EXPECT_TRUE(GlobMatch("test/**/*.py", "test/a/b/test_x.py"));
  EXPECT_TRUE(GlobMatch("test/**/*.py", "test/test_x.py"));
  EXPECT_FALSE(GlobMatch("test/*.py", "test/a/test_x.py"));
  EXPECT_TRUE(GlobMatch("test_[a-c]?.py", "test_b1.py"));
  EXPECT_FALSE(GlobMatch("test_[!a-c]?.py", "test_b1.py"));
}

}  // namespace
}  // namespace testmap::config
