// What a plan or a report reads: timing records, and the processes they
// ran in (timings/process_wall.h) for the fixed costs around the tests.
// ProcessWall record ranges index `records`.
#pragma once

#include <string>
#include <vector>

#include "timings/process_wall.h"
#include "timings/timing_record.h"

namespace testmap::timings {

struct TimingInput {
  std::vector<TimingRecord> records;
  std::vector<ProcessWall> walls;

  // Appends `more`, shifting its process ranges past the records here.
  void Append(TimingInput more);
};

// Reads timing files of any format (timing_file_reader.h) into one input.
TimingInput ReadTimingFiles(const std::vector<std::string>& paths);

}  // namespace testmap::timings
