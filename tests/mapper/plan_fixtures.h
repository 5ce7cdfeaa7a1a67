// Inputs shared by the mapper tests: the real PyTorch timings and small
// synthetic suites with known answers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "indexer/timings/test_times_reader.h"
#include "indexer/timings/timing_summary.h"
#include "mapper/estimator.h"
#include "mapper/plan_test.h"
#include "mapper/timing_selection.h"

namespace testmap::testing {

inline std::string RealTestTimesPath() {
  return std::string(TESTMAP_SOURCE_DIR) + "/../shared/data/pytorch-test-times.json";
}

inline bool HaveRealTestTimes() { return std::filesystem::exists(RealTestTimesPath()); }

// Tests of one job/config of the real file, as `testmap plan` builds them.
inline std::vector<mapper::PlanTest> RealPlanTests(const std::string& job,
                                                   const std::string& config) {
  auto selection = mapper::SelectTimings(
      indexer::Summarize(indexer::ReadTestTimes(RealTestTimesPath())), job, config);
  return mapper::BuildPlanTests(selection, {});
}

inline mapper::PlanTest MakeTest(const std::string& id, double seconds) {
  mapper::PlanTest t;
  t.id = id;
  auto colon = id.find("::");
  t.path = id.substr(0, colon);
  t.file =
      t.path.size() > 3 && t.path.ends_with(".py") ? t.path.substr(0, t.path.size() - 3) : t.path;
  if (colon != std::string::npos) {
    auto second = id.find("::", colon + 2);
    if (second != std::string::npos) t.cls = id.substr(colon + 2, second - colon - 2);
  } else {
    t.level = indexer::TimingLevel::kFile;
  }
  t.seconds = seconds;
  return t;
}

}  // namespace testmap::testing
