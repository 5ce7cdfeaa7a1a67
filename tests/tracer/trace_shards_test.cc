#include "tracer/trace_shards.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/trace_format.h"

namespace testmap::tracer {
namespace {

namespace fs = std::filesystem;

class TraceShards : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("testmap-shards-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    auto path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  static std::string Read(const std::string& path) {
    std::stringstream s;
    s << std::ifstream(path).rdbuf();
    return s.str();
  }
  fs::path dir_;
};

const char* kRun =
    R"({"type":"run","format":"testmap-trace","version":1,"worker":"main","metadata":{}})";

TEST_F(TraceShards, UnfinishedTestIsAppendedAsCrashed) {
  auto path = Write(
      "trace-main.jsonl",
      std::string(kRun) + "\n" + R"({"type":"begin","nodeid":"t.py::a"})" + "\n" +
          R"({"type":"test","nodeid":"t.py::a","outcome":"passed","ops":[{"op":"aten::add.Tensor","dtypes":["float32"],"device":"cpu","count":2,"evidence":"eager"}]})" +
          "\n" + R"({"type":"begin","nodeid":"t.py::b"})" + "\n");
  auto summary = FinishShard(path, "pytest was killed by signal 6 (Aborted)");
  EXPECT_EQ(summary.outcomes["passed"], 1u);
  EXPECT_EQ(summary.outcomes["crashed"], 1u);
  ASSERT_EQ(summary.crashed, std::vector<std::string>{"t.py::b"});
  EXPECT_EQ(summary.eager_ops, 1u);
  EXPECT_NE(Read(path).find("killed by signal 6"), std::string::npos);
  // Finishing twice adds nothing: the crash record now closes the begin.
  auto again = FinishShard(path, "other");
  EXPECT_EQ(again.outcomes["crashed"], 1u);
  EXPECT_EQ(Read(path).find("other"), std::string::npos);
}

TEST_F(TraceShards, RestartedWorkerClosesThePreviousProcessTest) {
  auto path =
      Write("trace-gw0.jsonl", std::string(kRun) + "\n" + R"({"type":"begin","nodeid":"t.py::a"})" +
                                   "\n" + kRun + "\n");
  auto summary = FinishShard(path, "unused");
  ASSERT_EQ(summary.crashed, std::vector<std::string>{"t.py::a"});
  EXPECT_NE(Read(path).find("process ended during the test"), std::string::npos);
}

TEST_F(TraceShards, LineCutShortByTheCrashIsTolerated) {
  auto path = Write("trace-main.jsonl", std::string(kRun) + "\n" +
                                            R"({"type":"begin","nodeid":"t.py::a"})" + "\n" +
                                            R"({"type":"test","nodeid":"t.py::a","outc)");
  auto summary = FinishShard(path, "killed");
  EXPECT_EQ(summary.crashed, std::vector<std::string>{"t.py::a"});
  // The appended record starts on its own line.
  EXPECT_NE(Read(path).find("\"outc\n{"), std::string::npos);
}

TEST_F(TraceShards, BadInputNamesFileAndLine) {
  auto garbage = Write("trace-a.jsonl", std::string(kRun) + "\nnot json\n{}\n");
  try {
    FinishShard(garbage, "x");
    FAIL() << "garbage accepted";
  } catch (const core::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(garbage + ":2: corrupt record, not JSON"),
              std::string::npos)
        << e.what();
  }
  auto version = Write("trace-b.jsonl", R"({"type":"run","format":"testmap-trace","version":7})"
                                        "\n");
  EXPECT_THROW(FinishShard(version, "x"), core::InputError);
  auto type = Write("trace-c.jsonl", std::string(kRun) + "\n" + R"({"type":"bogus"})" + "\n");
  try {
    FinishShard(type, "x");
    FAIL();
  } catch (const core::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":2: unknown record type `bogus`"), std::string::npos);
  }
  EXPECT_THROW(FinishShard((dir_ / "missing.jsonl").string(), "x"), core::InputError);
  EXPECT_EQ(core::ListShards(dir_.string()).size(), 3u);
}

}  // namespace
}  // namespace testmap::tracer
