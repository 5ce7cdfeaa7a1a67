// Inputs shared by the mapper tests: the real PyTorch timings and small
// synthetic suites with known answers.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "mapper/plan/estimator.h"
#include "mapper/plan/plan_input.h"
#include "mapper/plan/timing_selection.h"
#include "tests/support/temp_dir.h"
#include "timings/pytorch_times_reader.h"
#include "timings/timing_summary.h"

namespace testmap::testing {

// ../shared/data beside the checkout (as CI lays it out), or
// $TESTMAP_SHARED_DATA.
inline std::string RealTestTimesPath() {
  const char* dir = std::getenv("TESTMAP_SHARED_DATA");
  return (dir && *dir ? std::string(dir) : std::string(TESTMAP_SOURCE_DIR) + "/../shared/data") +
         "/pytorch-test-times.json";
}

// Missing data skips on a developer's clone and fails under CI=true.
inline bool HaveRealTestTimes() { return !ExternalData(RealTestTimesPath()).empty(); }

// Tests of one job/config of the real file, as `testmap plan` builds them.
inline std::vector<plan::PlanTest> RealPlanTests(const std::string& job,
                                                 const std::string& config) {
  auto selection = plan::SelectTimings(
      timings::Summarize(timings::ReadTestTimes(RealTestTimesPath())), job, config);
  return plan::BuildPlanTests(selection, {});
}

inline plan::PlanTest MakeTest(const std::string& id, double seconds) {
  plan::PlanTest t;
  t.id = id;
  auto colon = id.find("::");
  t.path = id.substr(0, colon);
  t.file =
      t.path.size() > 3 && t.path.ends_with(".py") ? t.path.substr(0, t.path.size() - 3) : t.path;
  if (colon != std::string::npos) {
    auto second = id.find("::", colon + 2);
    if (second != std::string::npos) t.cls = id.substr(colon + 2, second - colon - 2);
  } else {
    t.level = timings::TimingLevel::kFile;
  }
  t.seconds = seconds;
  return t;
}

}  // namespace testmap::testing
