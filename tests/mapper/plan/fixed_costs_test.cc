#include "mapper/plan/fixed_costs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "mapper/plan/plan_request.h"
#include "mapper/plan/planner.h"
#include "plan_fixtures.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"
#include "timings/junit_reader.h"

namespace testmap::plan {
namespace {

timings::ProcessWall Wall(int files, double tests, double wall) {
  timings::ProcessWall w;
  w.files = files;
  w.tests = 10;
  w.test_seconds = tests;
  w.wall_seconds = wall;
  return w;
}

TEST(FixedCosts, PerProcessAndPerFileFromProcessesOfDifferentSizes) {
  // overhead = 2 + 0.5 x files, exactly.
  FixedCosts c = LearnFixedCosts({Wall(1, 10, 12.5), Wall(3, 20, 23.5), Wall(8, 5, 11)});
  EXPECT_NEAR(c.per_process, 2, 1e-9);
  EXPECT_NEAR(c.per_file, 0.5, 1e-9);
  EXPECT_EQ(c.processes, 3);
}

TEST(FixedCosts, OneSizeOfProcessIsAllPerProcess) {
  FixedCosts c = LearnFixedCosts({Wall(4, 10, 13), Wall(4, 10, 15)});
  EXPECT_DOUBLE_EQ(c.per_process, 4);
  EXPECT_DOUBLE_EQ(c.per_file, 0);
  FixedCosts none = LearnFixedCosts({});
  EXPECT_EQ(none.processes, 0);
  EXPECT_DOUBLE_EQ(none.per_process + none.per_file, 0);
}

TEST(FixedCosts, NeverNegative) {
  // More files, less overhead: no per-file cost to see.
  FixedCosts c = LearnFixedCosts({Wall(1, 10, 14), Wall(5, 10, 12)});
  EXPECT_DOUBLE_EQ(c.per_file, 0);
  EXPECT_DOUBLE_EQ(c.per_process, 3);
  // Overhead that grows faster than files would put the intercept below 0.
  // Least squares through the origin: (1 x 0.1 + 5 x 5) / (1 + 25).
  FixedCosts d = LearnFixedCosts({Wall(1, 10, 10.1), Wall(5, 10, 15)});
  EXPECT_DOUBLE_EQ(d.per_process, 0);
  EXPECT_NEAR(d.per_file, 25.1 / 26, 1e-9);
  // A suite whose tests add up to more than its time (rounding) costs 0.
  EXPECT_DOUBLE_EQ(Wall(1, 10, 9.99).Overhead(), 0);
}

timings::ProcessWall Session(double start, double wall, const std::string& host = "h") {
  timings::ProcessWall w = Wall(1, 0, wall);
  w.start = start;
  w.host = host;
  return w;
}

TEST(FixedCosts, StartupIsTheMedianGapBetweenSessionsOneAfterAnother) {
  // Sessions [0,10] [14,20] [25,30] [31,40]: gaps 4, 5, 1; median 4.
  FixedCosts c = LearnFixedCosts({Session(25, 5), Session(0, 10), Session(31, 9), Session(14, 6)});
  EXPECT_DOUBLE_EQ(c.startup, 4);
  EXPECT_EQ(c.startup_gaps, 3);
  // An even count takes the middle two's mean: gaps 4 and 5.
  EXPECT_DOUBLE_EQ(LearnFixedCosts({Session(0, 10), Session(14, 6), Session(25, 5)}).startup, 4.5);
}

TEST(FixedCosts, NoGapWhereSessionsOverlapOrAreApartOrOnOtherHosts) {
  // Side by side (two streams): [0,10] [2,12] [13,20]: only 12 -> 13, when
  // nothing else runs; 10 -> 13 is not one process's gap.
  FixedCosts side = LearnFixedCosts({Session(0, 10), Session(2, 10), Session(13, 7)});
  EXPECT_EQ(side.startup_gaps, 1);
  EXPECT_DOUBLE_EQ(side.startup, 1);
  // Another night, and another host, tell nothing.
  FixedCosts apart = LearnFixedCosts(
      {Session(0, 10), Session(10 + kMaxStartupGapSeconds + 1, 5), Session(12, 3, "other")});
  EXPECT_EQ(apart.startup_gaps, 0);
  EXPECT_DOUBLE_EQ(apart.startup, 0);
  // Without start times (a .test_durations, an old report) nothing either.
  EXPECT_EQ(LearnFixedCosts({Wall(1, 1, 2), Wall(2, 1, 3)}).startup_gaps, 0);
}

// Ground truth from outside: real pytest processes run one after another,
// each timed as a whole from the driver that starts it. A conftest makes
// the time outside the session large and known in part (0.6 s at import,
// before the session; 0.4 s at unconfigure, after it). What the reports'
// gaps say a process pays outside its session must match the processes'
// whole time less their session time, which no report holds.
TEST(FixedCosts, StartupFromRealReportsMatchesWholeProcessesLessTheirSessions) {
  testing::TempDir dir;
  dir.Write("pytest.ini", "[pytest]\n");
  dir.Write("conftest.py",
            "import time\ntime.sleep(0.6)\n\ndef pytest_unconfigure(config):\n"
            "    time.sleep(0.4)\n");
  dir.Write("test_a.py", "def test_one():\n    pass\n\ndef test_two():\n    pass\n");
  const std::string driver = dir.Write("drive.py", R"(
import json, subprocess, sys, time
walls = []
for k in range(4):
    start = time.time()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "-p", "no:hypothesispytest", "test_a.py", "--junitxml", f"run{k}.xml"],
                   check=True, stdout=subprocess.DEVNULL)
    walls.append(time.time() - start)
print(json.dumps(walls))
)");
  auto run = testing::Python({driver}, dir.path().string());
  ASSERT_EQ(run.rc, 0) << run.err;
  const auto whole = nlohmann::json::parse(run.out);
  std::vector<timings::ProcessWall> walls;
  std::vector<double> outside;
  for (size_t k = 0; k < whole.size(); ++k) {
    timings::ReadJUnitXml(dir.path().string() + "/run" + std::to_string(k) + ".xml", &walls);
    ASSERT_EQ(walls.size(), k + 1);
    ASSERT_GT(walls.back().start, 0);
    outside.push_back(whole[k].get<double>() - walls.back().wall_seconds);
  }
  std::sort(outside.begin(), outside.end());
  const double truth = (outside[1] + outside[2]) / 2;  // the median of 4
  FixedCosts c = LearnFixedCosts(walls);
  EXPECT_EQ(c.startup_gaps, 3);
  EXPECT_GT(c.startup, 1.0);  // the conftest's sleeps at least
  EXPECT_NEAR(c.startup, truth, 0.2 + 0.15 * truth)
      << "outside the sessions: " << outside[0] << " .. " << outside[3];
}

// The per-process cost changes no placement, only what is predicted: each
// process that runs something pays it once.
TEST(FixedCosts, PlannedSplitsPayThem) {
  std::vector<PlanTest> tests;
  for (int i = 0; i < 6; ++i)
    tests.push_back(
        testing::MakeTest("f" + std::to_string(i % 3) + ".py::t" + std::to_string(i), 1));
  PlanOptions options;
  options.splits = 3;
  Plan bare = MakePlan(tests, options);
  options.process_overhead = 2;
  options.file_overhead = 0.5;
  Plan paid = MakePlan(tests, options);
  ASSERT_EQ(paid.splits.size(), 3u);
  for (const PlannedSplit& s : paid.splits) {
    // Two tests a split; at best both from one file: 2 + 0.5 + 2.
    EXPECT_NEAR(s.seconds, 4.5, 1e-9) << s.index;
  }
  EXPECT_NEAR(bare.makespan, 2, 1e-9);
  EXPECT_NEAR(paid.lower_bound, 2 + 0.5 * 3 / 3 + 2, 1e-9);
}

// n tests of `file`, 0.01 s each: file.py::t0, file.py::t1, ...
void AddTests(std::vector<timings::TimingRecord>& records, const std::string& file, int n) {
  for (int i = 0; i < n; ++i) {
    timings::TimingRecord r;
    r.file = file;
    r.id = file + ".py::t" + std::to_string(i);
    r.seconds = 0.01;
    records.push_back(r);
  }
}

// pytest builds every test of a file to run any of them: a process that
// runs one test of a large file pays for all of them; and it spends time on
// each test it runs beyond the test's own duration.
TEST(FixedCosts, ProcessesPayPerTestTheyRunAndPerTestOfTheFilesTheyRun) {
  std::vector<timings::TimingRecord> records;
  auto add = [&](const std::string& file, int n) { AddTests(records, file, n); };
  // What each process ran: records [first, end), overhead exactly
  // 2 + 0.1 x files + 0.002 x tests run + 0.001 x the tests its files hold
  // (a: 1000, b, c: 10).
  auto process = [&](size_t first, int files, double collected) {
    timings::ProcessWall w;
    w.first_record = first;
    w.end_record = records.size();
    w.files = files;
    w.tests = static_cast<int>(records.size() - first);
    w.test_seconds = 0.01 * w.tests;
    w.wall_seconds = w.test_seconds + 2 + 0.1 * files + 0.002 * w.tests + 0.001 * collected;
    return w;
  };
  std::vector<timings::ProcessWall> walls;
  size_t at = records.size();
  add("a", 1000);
  walls.push_back(process(at, 1, 1000));
  at = records.size();
  add("b", 10);
  walls.push_back(process(at, 1, 10));
  at = records.size();
  add("b", 10), add("c", 10);
  walls.push_back(process(at, 2, 20));
  // Whole files only: tests run and tests collected are the same numbers,
  // so their costs cannot be told apart and count per test run.
  const std::map<std::string, int> whole = CollectedTests(records);
  EXPECT_EQ(whole, (std::map<std::string, int>{{"a", 1000}, {"b", 10}, {"c", 10}}));
  FixedCosts w = LearnFixedCosts(walls, records, whole);
  EXPECT_NEAR(w.per_process, 2, 1e-9);
  EXPECT_NEAR(w.per_file, 0.1, 1e-9);
  EXPECT_NEAR(w.per_test, 0.003, 1e-12);
  EXPECT_DOUBLE_EQ(w.per_collected, 0);
  // A split run (one test of a, all of c) tells them apart: a's 1000 tests
  // are built for the one that runs.
  at = records.size();
  add("a", 1);
  add("c", 10);
  walls.push_back(process(at, 2, 1010));
  FixedCosts c = LearnFixedCosts(walls, records, CollectedTests(records));
  EXPECT_NEAR(c.per_process, 2, 1e-9);
  EXPECT_NEAR(c.per_file, 0.1, 1e-9);
  EXPECT_NEAR(c.per_test, 0.002, 1e-12);
  EXPECT_NEAR(c.per_collected, 0.001, 1e-12);
  // Without the records nothing is known per collected test.
  FixedCosts files_only = LearnFixedCosts(walls);
  EXPECT_DOUBLE_EQ(files_only.per_collected, 0);
}

TEST(FixedCosts, ACollectOnlyProcessTellsCollectingFromRunningWithoutSplitRuns) {
  // Processes paying exactly 2 s + 0.002 s per test run + 0.001 s per test
  // their files hold; a holds 1,000 tests, b 10. Whole-file runs alone count
  // 0.003 s per test run (the test above); one traced `pytest
  // --collect-only` of a, which ran nothing, tells the two costs apart.
  std::vector<timings::TimingRecord> records;
  std::vector<timings::ProcessWall> walls;
  auto run_whole = [&](const std::string& file, int n) {
    timings::ProcessWall w;
    w.first_record = records.size();
    AddTests(records, file, n);
    w.end_record = records.size();
    w.files = 1;
    w.tests = n;
    w.test_seconds = 0.01 * n;
    w.wall_seconds = w.test_seconds + 2 + 0.002 * n + 0.001 * n;
    walls.push_back(w);
  };
  run_whole("a", 1000);
  run_whole("b", 10);
  timings::ProcessWall collect_only;
  collect_only.files = 1;
  collect_only.collection = {{"a", 1000}};
  collect_only.first_record = collect_only.end_record = records.size();
  collect_only.wall_seconds = 2 + 0.001 * 1000;
  walls.push_back(collect_only);
  const std::map<std::string, int> collected = CollectedTests(records, {}, walls);
  EXPECT_EQ(collected, (std::map<std::string, int>{{"a", 1000}, {"b", 10}}));
  FixedCosts c = LearnFixedCosts(walls, records, collected);
  EXPECT_EQ(c.processes, 3);
  EXPECT_NEAR(c.per_process, 2, 1e-9);
  EXPECT_NEAR(c.per_test, 0.002, 1e-12);
  EXPECT_NEAR(c.per_collected, 0.001, 1e-12);
  // Without it, the whole-file runs cannot.
  walls.pop_back();
  FixedCosts blind = LearnFixedCosts(walls, records, CollectedTests(records, {}, walls));
  EXPECT_NEAR(blind.per_test, 0.003, 1e-12);
  EXPECT_DOUBLE_EQ(blind.per_collected, 0);
  // What pytest counted when it collected a file is more than the history
  // ran of it: the count, whichever way the path is spelled.
  timings::ProcessWall counted;
  counted.collection = {{"test/b", 25}};
  EXPECT_EQ(CollectedTests(records, {}, {counted}),
            (std::map<std::string, int>{{"a", 1000}, {"b", 25}}));
}

TEST(FixedCosts, CollectedTestsAreEveryTestKnownOfAFileWhicheverWayItsPathIsSpelled) {
  std::vector<timings::TimingRecord> records;
  for (const char* id : {"test/test_a.py::T::t0", "test/test_a.py::T::t1"}) {
    timings::TimingRecord r;
    r.id = id;
    r.file = "test/test_a";
    records.push_back(r);
  }
  timings::TimingRecord whole;  // a file timed only as a whole
  whole.id = whole.file = "test_c";
  whole.level = timings::TimingLevel::kFile;
  records.push_back(whole);
  EXPECT_EQ(CollectedTests(records), (std::map<std::string, int>{{"test/test_a", 2}}));
  // A scan run from test/ spells the same file without "test/"; t1 is the
  // report's, t2 and t3 were never run; test_b is not a file of the records
  // and a bare path is no test.
  const std::vector<std::string> known = {
      "test_a.py::T::t1", "test_a.py::T::t2", "./test/test_a.py::T::t3",
      "test_b.py::T::t0", "test_a.py",        "test_c.py::TestC::t0"};
  EXPECT_EQ(CollectedTests(records, known),
            (std::map<std::string, int>{{"test/test_a", 4}, {"test_c", 1}}));
}

TEST(FixedCosts, TestsTheHistoryNeverRanStillCostTheSplitsThatCollectTheirFile) {
  // Processes paying exactly 2 s + 1 ms per test their files hold: big.py
  // holds 1,000 tests, of which the reports only ever ran 1 and 2; small.py
  // 10, all run.
  timings::TimingInput input;
  std::vector<std::string> known;
  for (int i = 0; i < 1000; ++i) known.push_back("big.py::t" + std::to_string(i));
  auto process = [&](std::vector<std::string> ids, double collected) {
    timings::ProcessWall w;
    w.first_record = input.records.size();
    std::set<std::string> files;
    for (const std::string& id : ids) {
      timings::TimingRecord r;
      r.id = id;
      r.file = id.substr(0, id.find(".py"));
      r.seconds = 0.5;
      files.insert(r.file);
      input.records.push_back(r);
    }
    w.end_record = input.records.size();
    w.files = static_cast<int>(files.size());
    w.tests = static_cast<int>(ids.size());
    w.test_seconds = 0.5 * w.tests;
    w.wall_seconds = w.test_seconds + 2 + 0.001 * collected;
    input.walls.push_back(w);
  };
  std::vector<std::string> small;
  for (int i = 0; i < 10; ++i) small.push_back("small.py::t" + std::to_string(i));
  process(small, 10);
  process({"big.py::t0"}, 1000);
  process({"big.py::t1", "big.py::t2"}, 1000);
  PlanRequest request;
  request.options.splits = 1;
  request.known_ids = known;
  Plan plan = PlanFromRecords(input, request);
  EXPECT_NEAR(plan.options.process_overhead, 2, 1e-9);
  EXPECT_NEAR(plan.options.collected_overhead, 0.001, 1e-12);
  EXPECT_NEAR(plan.options.test_overhead, 0, 1e-12);
  // One split runs all 13 tests: 6.5 s of tests, 2 s, and 1,010 tests
  // collected.
  ASSERT_EQ(plan.splits.size(), 1u);
  EXPECT_NEAR(plan.splits[0].seconds, 6.5 + 2 + 1.01, 1e-9);
  // Counting only what the reports ran (big.py: 3 tests), no fit explains
  // the processes, and the split is predicted short.
  request.known_ids.clear();
  Plan blind = PlanFromRecords(input, request);
  EXPECT_LT(blind.splits[0].seconds, 6.5 + 2 + 1.01 - 0.3);
}

TEST(FixedCosts, APlanKeepsALargeFilesTestsTogetherAndEachSplitPaysWhatItCollects) {
  std::vector<PlanTest> tests = {
      testing::MakeTest("big.py::a", 4), testing::MakeTest("big.py::b", 4),
      testing::MakeTest("small.py::c", 3), testing::MakeTest("small.py::d", 3),
      testing::MakeTest("small.py::e", 2)};
  PlanOptions options;
  options.splits = 2;
  options.collected_overhead = 0.001;
  options.collected_tests = {{"big", 1000}, {"small", 0}};
  Plan plan = MakePlan(tests, options);
  // Cutting big.py across both splits would make one 4 + 3 + 2 + 1 = 10 s;
  // together: 4 + 4 + 1 = 9 s, and 3 + 3 + 2 = 8 s.
  EXPECT_NEAR(plan.makespan, 9, 1e-9);
  // Each test run costs its split 0.1 s more: 9.2 s and 8.3 s.
  options.test_overhead = 0.1;
  EXPECT_NEAR(MakePlan(tests, options).makespan, 9.2, 1e-9);
  ASSERT_EQ(plan.splits.size(), 2u);
  for (const PlannedSplit& s : plan.splits) {
    bool big = false;
    for (int i : s.items) big = big || plan.items[i].file == "big";
    EXPECT_NEAR(s.seconds, big ? 9 : 8, 1e-9) << s.index;
  }
}

}  // namespace
}  // namespace testmap::plan
