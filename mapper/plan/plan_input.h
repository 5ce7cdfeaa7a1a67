// The tests (or files, or classes: whatever the timings know) a plan places,
// each with a duration that is measured or estimated.
#pragma once

#include <string>

#include "timings/timing_record.h"

namespace testmap::plan {

struct PlanTest {
  std::string id;    // exactly as the input spells it (nodeids prints this)
  std::string path;  // "test_ops.py", or "test_nn" for file-level timings
  std::string file;  // file key: path without ".py"
  std::string cls;
  std::string generic;  // generic-test key for sibling estimates (set only when some are needed)
  timings::TimingLevel level = timings::TimingLevel::kTest;
  std::string feature;
  double seconds = 0;
  // Empty when measured; otherwise where the estimate came from:
  // "config <job>/<config>", "siblings", "class", "file", "suite".
  std::string estimate;
};

}  // namespace testmap::plan
