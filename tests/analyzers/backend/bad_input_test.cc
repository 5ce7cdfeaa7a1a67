// Bad input to `testmap backend scan`: a C++ file that does not parse, one
// whose include is missing, a Python file with a syntax error, names torch
// does not know. Each is reported with its file and line, the rest of the
// tree is still read, and the exit status is 1 (a partial answer).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/analyzers/backend/backend_truth.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

using testmap::testing::CommandResult;
using testmap::testing::Testmap;

namespace {

class BadInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new testmap::testing::TempDir;
    tmp_->Write("csrc/good.cpp",
                "#include <torch/library.h>\n"
                "#include <pybind11/pybind11.h>\n"
                "at::Tensor my_abs(const at::Tensor& t) { return t; }\n"
                "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {\n"
                "  m.impl(\"abs\", &my_abs);\n"
                "  m.impl(\"sine\", &my_abs);\n"
                "}\n"
                "PYBIND11_MODULE(bad_input_ext, m) {\n"
                "  m.def(\"f\", [] { return 1; });\n"
                "}\n");
    tmp_->Write("csrc/broken.cpp",
                "#include <torch/library.h>\n"
                "at::Tensor my_neg(const at::Tensor& t) { return t; }\n"
                "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {\n"
                "  m.impl(\"neg\", &my_neg)\n"
                "}\n");
    tmp_->Write("csrc/missing.cpp",
                "#include <torch/library.h>\n"
                "#include \"not_there.h\"\n"
                "TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {}\n");
    tmp_->Write("pkg/__init__.py",
                "import torch\n"
                "torch.utils.rename_privateuse1_backend('baddev')\n"
                "torch.library.register_kernel('aten::abss', 'baddev', lambda x: x)\n"
                "from . import broken\n");
    tmp_->Write("pkg/broken.py", "import torch\n\ndef f(:\n    pass\n");
    std::string cache = (tmp_->path() / "cache").string();
    testmap::backend_test::SeedTorchSnapshot(cache);
    std::vector<std::string> args{"backend",        "scan",         tmp_->path().string(),
                                  "--torch-python", TESTMAP_PYTHON, "--format",
                                  "json",           "--cache-dir",  cache};
    first_ = new CommandResult(Testmap(args));
    second_ = new CommandResult(Testmap(args));
    doc_ = new nlohmann::json(nlohmann::json::parse(first_->out, nullptr, false));
  }
  static void TearDownTestSuite() {
    delete first_;
    delete second_;
    delete doc_;
    delete tmp_;
  }
  static bool HasRecord(const std::string& op, const std::string& file) {
    for (const auto& r : (*doc_)["records"])
      if (r["op"] == op && r["file"] == file) return true;
    return false;
  }
  static testmap::testing::TempDir* tmp_;
  static CommandResult *first_, *second_;
  static nlohmann::json* doc_;
};

testmap::testing::TempDir* BadInput::tmp_ = nullptr;
CommandResult *BadInput::first_ = nullptr, *BadInput::second_ = nullptr;
nlohmann::json* BadInput::doc_ = nullptr;

TEST_F(BadInput, PartialAnswerExitsOne) {
  EXPECT_EQ(first_->rc, 1) << first_->err;
  ASSERT_TRUE(doc_->is_object()) << first_->out;
  EXPECT_NE(first_->err.find("the answer is partial"), std::string::npos) << first_->err;
}

TEST_F(BadInput, CppThatDoesNotParseIsNamedByFileAndLine) {
  EXPECT_NE(first_->err.find("csrc/broken.cpp:4: error: expected ';'"), std::string::npos)
      << first_->err;
}

TEST_F(BadInput, MissingIncludeIsNamedByFileAndLine) {
  EXPECT_NE(first_->err.find("csrc/missing.cpp:2: error: 'not_there.h' file not found"),
            std::string::npos)
      << first_->err;
}

TEST_F(BadInput, PythonSyntaxErrorIsNamedByFileAndLine) {
  EXPECT_NE(first_->err.find("pkg/broken.py:3: error: syntax error"), std::string::npos)
      << first_->err;
}

TEST_F(BadInput, TheRestIsStillRead) {
  EXPECT_TRUE(HasRecord("aten::abs", "csrc/good.cpp")) << first_->out;
  // The pybind11 m.def in the same file defines a Python function, no operator.
  for (const auto& r : (*doc_)["records"]) EXPECT_NE(r["kind"], "definition") << r.dump();
}

TEST_F(BadInput, UnknownNamesAreReportedWithSuggestionsAndKept) {
  EXPECT_NE(first_->err.find("csrc/good.cpp:6: warning: aten::sine is not an operator of torch"),
            std::string::npos)
      << first_->err;
  EXPECT_NE(first_->err.find("pkg/__init__.py:3: warning: aten::abss is not an operator"),
            std::string::npos)
      << first_->err;
  EXPECT_NE(first_->err.find("did you mean aten::abs"), std::string::npos) << first_->err;
  for (const auto& r : (*doc_)["records"])
    if (r["op"] == "aten::sine" || r["op"] == "aten::abss") EXPECT_EQ(r["in_registry"], false);
  EXPECT_TRUE(HasRecord("aten::sine", "csrc/good.cpp"));
  EXPECT_TRUE(HasRecord("aten::abss", "pkg/__init__.py"));
}

TEST_F(BadInput, FilesWithErrorsAreNotCached) {
  EXPECT_EQ(second_->rc, 1);
  EXPECT_NE(second_->err.find("1 from the cache, 2 read by Clang"), std::string::npos)
      << second_->err;
  EXPECT_NE(second_->err.find("csrc/broken.cpp:4: error:"), std::string::npos);
}

}  // namespace
