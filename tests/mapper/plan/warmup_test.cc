#include "mapper/plan/warmup.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mapper/plan/plan_request.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::plan {
namespace {

// One process running `seconds` (test i of file `files[i]`), in that order,
// its session `overhead` longer than its tests.
void AddProcess(timings::TimingInput& input, const std::vector<std::string>& ids,
                const std::vector<double>& seconds, double overhead) {
  timings::ProcessWall w;
  w.first_record = input.records.size();
  for (size_t i = 0; i < ids.size(); ++i) {
    timings::TimingRecord r;
    r.id = ids[i];
    r.file = ids[i].substr(0, ids[i].find("::"));
    r.seconds = seconds[i];
    input.records.push_back(r);
    w.test_seconds += seconds[i];
  }
  w.end_record = input.records.size();
  w.tests = static_cast<int>(ids.size());
  w.files = 1;
  w.wall_seconds = w.test_seconds + overhead;
  input.walls.push_back(w);
}

TEST(Warmup, FirstTestFarAboveItsFilesOthersPaysTheProcesssWarmup) {
  timings::TimingInput input;
  AddProcess(input, {"a::t0", "a::t1", "a::t2", "a::t3"}, {0.95, 0.002, 0.001, 0.003}, 2);
  Warmup w = MoveWarmupToOverhead(input);
  EXPECT_EQ(w.processes, 1);
  EXPECT_NEAR(w.seconds, 0.95 - 0.002, 1e-9);
  EXPECT_NEAR(input.records[0].seconds, 0.002, 1e-9);  // the median of its peers
  EXPECT_NEAR(input.walls[0].Overhead(), 2 + 0.948, 1e-9);
  EXPECT_NEAR(input.walls[0].wall_seconds, 2 + 0.956, 1e-9);  // the wall is as measured
}

TEST(Warmup, TheSameTestElsewhereTellsItsTypicalTime) {
  timings::TimingInput input;
  // b::t0 first in one process (2.0 s), second in another (0.5 s): 1.5 s
  // is warm-up, though 2.0 s is not 10x its file's other test.
  AddProcess(input, {"b::t0", "b::t1"}, {2.0, 0.01}, 1);
  AddProcess(input, {"c::t0", "b::t0", "c::t1", "c::t2", "c::t3"}, {0.1, 0.5, 0.1, 0.1, 0.1}, 1);
  Warmup w = MoveWarmupToOverhead(input);
  EXPECT_EQ(w.processes, 1);
  EXPECT_NEAR(input.records[0].seconds, 0.5, 1e-9);
  EXPECT_NEAR(input.walls[0].Overhead(), 1 + 1.5, 1e-9);
  EXPECT_NEAR(input.records[2].seconds, 0.1, 1e-9);  // c::t0 is typical: left alone
}

TEST(Warmup, NothingMovesWithoutEvidence) {
  timings::TimingInput input;
  // Too few peers to say what is typical.
  AddProcess(input, {"a::t0", "a::t1", "a::t2"}, {3, 0.001, 0.001}, 1);
  // Slower than its peers, but not 10x.
  AddProcess(input, {"d::t0", "d::t1", "d::t2", "d::t3"}, {0.9, 0.1, 0.1, 0.1}, 1);
  // 10x, but by less than kMinWarmupSeconds.
  AddProcess(input, {"e::t0", "e::t1", "e::t2", "e::t3"}, {0.04, 0.001, 0.001, 0.001}, 1);
  // A process of one test.
  AddProcess(input, {"f::t0"}, {5}, 1);
  // Elsewhere the same test is about as slow (under 2x): it is slow, not
  // warming up.
  AddProcess(input, {"g::t0", "g::t1", "g::t2", "g::t3"}, {2, 0.01, 0.01, 0.01}, 1);
  AddProcess(input, {"h::t0", "g::t0"}, {0.1, 1.9}, 1);
  // Ranges no reader makes: past the records, and reversed.
  timings::ProcessWall past;
  past.first_record = input.records.size();
  past.end_record = input.records.size() + 5;
  timings::ProcessWall reversed;
  reversed.first_record = 3;
  reversed.end_record = 1;
  input.walls.push_back(past);
  input.walls.push_back(reversed);
  const timings::TimingInput before = input;
  Warmup w = MoveWarmupToOverhead(input);
  EXPECT_EQ(w.processes, 0);
  for (size_t i = 0; i < input.records.size(); ++i)
    EXPECT_EQ(input.records[i].seconds, before.records[i].seconds) << input.records[i].id;
}

// Ground truth from real pytest processes: a helper both test files use
// sleeps 0.6 s on its first call in a process, as torch's lazy set-up does.
// Timing runs of each file alone put the sleep in each file's first test; a
// split running both files pays it once. The prediction for that split,
// from the two timing runs, must match its real session, where charging
// the sleep to both files' first tests is off by the sleep.
TEST(Warmup, PredictsARealSplitThatPaysTheWarmupOnce) {
  testing::TempDir dir;
  dir.Write("pytest.ini", "[pytest]\n");
  dir.Write("shared.py",
            "import functools, time\n\n@functools.cache\ndef warm():\n    time.sleep(0.6)\n");
  for (const char* name : {"test_a", "test_b"}) {
    std::string src = "import time\nfrom shared import warm\n";
    for (int k = 0; k < 5; ++k)
      src += "\ndef test_" + std::to_string(k) + "():\n    warm()\n    time.sleep(0.05)\n";
    dir.Write(std::string(name) + ".py", src);
  }
  auto pytest = [&](const std::vector<std::string>& files, const std::string& xml) {
    std::vector<std::string> args = {
        "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"};
    args.insert(args.end(), files.begin(), files.end());
    args.insert(args.end(), {"--junitxml", xml});
    auto run = testing::Python(args, dir.path().string());
    ASSERT_EQ(run.rc, 0) << run.out << run.err;
  };
  pytest({"test_a.py"}, "a.xml");
  pytest({"test_b.py"}, "b.xml");
  pytest({"test_a.py", "test_b.py"}, "both.xml");
  const std::string a = dir.path().string() + "/a.xml", b = dir.path().string() + "/b.xml";
  PlanRequest request;
  request.options.splits = 1;
  Plan plan = PlanFromRecords(timings::ReadTimingFiles({a, b}), request);
  PlanReport report =
      ReportPlan(plan, timings::ReadTimingFiles({dir.path().string() + "/both.xml"}), 50);
  ASSERT_EQ(report.splits.size(), 1u);
  const SplitReport& s = report.splits[0];
  ASSERT_GT(s.measured_wall_seconds, 0);
  EXPECT_LT(std::abs(s.measured_wall_seconds - s.predicted_seconds), 0.25)
      << "predicted " << s.predicted_seconds << " s, measured " << s.measured_wall_seconds << " s";
  EXPECT_NE(plan.overhead_source.find("warm-up in the first test of 2"), std::string::npos)
      << plan.overhead_source;
  // Charging each first test its warm-up predicts the second sleep too.
  timings::TimingInput raw = timings::ReadTimingFiles({a, b});
  double charged = 0;
  for (const auto& r : raw.records) charged += r.seconds;
  EXPECT_GT(charged, s.measured_seconds + 0.5);
}

}  // namespace
}  // namespace testmap::plan
