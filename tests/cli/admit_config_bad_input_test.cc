// Bad input to `testmap admit` and `testmap config`: file:line errors,
// the documented exit codes (1 bad input, 2 usage, 3 unknown name with
// suggestions, 4 no node ids), and nothing written.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/mapper/admit/suite_index.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

namespace fs = std::filesystem;

const char* kHead =
    "test_suite_config:\n  files:\n    - path: ${TORCH_ROOT}/test/test_binary_ops.py\n";

struct Bad {
  const char* name;
  std::string text;
  std::string where;  // FILE:LINE:COLUMN
  std::string says;
};

TEST(AdmitConfigBadInput, ConfigErrorsNameFileLineAndExitOne) {
  std::vector<Bad> cases = {
      {"malformed.yaml", std::string(kHead) + "      tests: [{names: [A::b]\n", ":5:1",
       "malformed YAML"},
      {"mode.yaml",
       std::string(kHead) +
           "      tests:\n        - names: [TestBinaryOps::test_add]\n          mode: passes\n",
       ":6:17", "unknown mode `passes`"},
      {"parts.yaml",
       std::string(kHead) +
           "      tests:\n        - names: [test_binary_ops.py::TestBinaryOps::test_add]\n",
       ":5:19", "test name `test_binary_ops.py::TestBinaryOps::test_add` has 3 parts"},
      {"dtype.yaml",
       std::string(kHead) +
           "      tests:\n        - names: [TestBinaryOps::test_add]\n          edits:\n           "
           " dtypes:\n              exclude: [{name: float128}]\n",
       ":8:32", "`float128` in edits.dtypes.exclude is not a dtype torch has"},
  };
  std::string out = ScratchDir("bad") + "/out.yaml";
  for (const auto& c : cases) {
    std::string path = WriteTempFile(c.name, c.text);
    auto check = TestmapWithTorch({"config", "check", path, "--no-index"});
    EXPECT_EQ(check.rc, 1) << c.name << check.out << check.err;
    EXPECT_NE(check.out.find(path + c.where + ": error: " + c.says), std::string::npos)
        << c.name << "\n"
        << check.out;
    auto explain = Testmap({"config", "explain", path, "--index", SuiteIndex()});
    EXPECT_EQ(explain.rc, 1) << c.name;
    EXPECT_NE(explain.err.find(path + c.where + ": " + c.says), std::string::npos) << c.name << "\n"
                                                                                   << explain.err;
    // Neither a bad base nor a bad supported config writes anything.
    for (const char* flag : {"--base", "--supported"}) {
      std::vector<std::string> args = {"config", "generate", "--index", SuiteIndex(),
                                       "-o",     out,        flag,      path};
      if (std::string(flag) == "--base") args.insert(args.end(), {"--ops", "add"});
      auto gen = TestmapWithTorch(args);
      EXPECT_EQ(gen.rc, 1) << c.name << flag << gen.err;
      EXPECT_NE(gen.err.find(path + c.where), std::string::npos) << gen.err;
      EXPECT_FALSE(fs::exists(out)) << c.name << flag;
    }
  }
}

TEST(AdmitConfigBadInput, UnknownKeysWarnUnlessStrict) {
  std::string path = WriteTempFile("unknown.yaml", std::string(kHead) + "      flaky_retries: 3\n");
  auto loose = TestmapWithTorch({"config", "check", path, "--no-index"});
  EXPECT_EQ(loose.rc, 0) << loose.out;
  EXPECT_NE(loose.out.find(path + ":4:7: warning: unknown key `flaky_retries`"), std::string::npos)
      << loose.out;
  auto strict = TestmapWithTorch({"config", "check", path, "--no-index", "--strict"});
  EXPECT_EQ(strict.rc, 1);
  EXPECT_NE(strict.out.find(path + ":4:7: error: unknown key `flaky_retries`"), std::string::npos)
      << strict.out;
}

TEST(AdmitConfigBadInput, AdmitExitCodes) {
  const std::string& index = SuiteIndex();
  auto typo = TestmapWithTorch({"admit", "--index", index, "--ops", "add,mull"});
  EXPECT_EQ(typo.rc, 3);
  EXPECT_NE(typo.err.find("did you mean: aten::mul"), std::string::npos) << typo.err;
  auto dtype = TestmapWithTorch({"admit", "--index", index, "--ops", "add", "--dtypes", "float33"});
  EXPECT_EQ(dtype.rc, 3);
  EXPECT_NE(dtype.err.find("did you mean"), std::string::npos) << dtype.err;
  EXPECT_EQ(TestmapWithTorch({"admit", "--index", index}).rc, 2);  // nothing supported
  EXPECT_EQ(TestmapWithTorch({"admit", "--index", index, "--ops", "add", "--device", "cuda:0"}).rc,
            2);
  auto no_device =
      TestmapWithTorch({"admit", "--index", index, "--ops", "add", "--device", "privateuse1:toy"});
  EXPECT_EQ(no_device.rc, 2);
  EXPECT_NE(no_device.err.find("testmap scan --device privateuse1:toy"), std::string::npos);
  std::string records = WriteTempFile(
      "records.jsonl",
      R"({"op":"aten::add.Tensor","dispatch_key":"PrivateUse1","kind":"kernel","mechanism":"m.impl","file":"a.cpp","line":1,"evidence":"static"})"
      "\n"
      R"({"op":"aten::mul","dispatch_key":"PrivateUse1","kind":"kernal","mechanism":"m.impl","file":"a.cpp","line":2,"evidence":"static"})"
      "\n");
  auto bad_records = TestmapWithTorch({"admit", "--index", index, "--supported", records});
  EXPECT_EQ(bad_records.rc, 1);
  EXPECT_NE(bad_records.err.find(records + ":2: unknown kind \"kernal\""), std::string::npos)
      << bad_records.err;
  // An empty list of node ids has its own code: `pytest $(...)` must not run everything.
  auto none = TestmapWithTorch({"admit", "--index", index, "--ops", "add", "--dtypes", "float32",
                                "--new-op", "aten::_scaled_mm", "--format", "nodeids"});
  EXPECT_EQ(none.rc, 4) << none.err;
  EXPECT_EQ(none.out, "");
}

}  // namespace
}  // namespace testmap::testing
