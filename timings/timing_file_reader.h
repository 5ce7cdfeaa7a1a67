// One entry point for every timing format, chosen by content rather than by
// file name (CI artifacts get renamed): XML is JUnit; a JSON object whose
// values are numbers is .test_durations; nested {job: {config: ...}} is
// PyTorch's test-times.json; JSON lines with a "type" are the tracer's
// trace shards.
#pragma once

#include <string>
#include <vector>

#include "timings/process_wall.h"
#include "timings/timing_record.h"

namespace testmap::timings {

enum class TimingFormat { kJUnitXml, kTestDurations, kTestTimes, kTraceShard };

const char* TimingFormatName(TimingFormat format);

// Which format `text` is in. Throws core::InputError for an empty file or
// content that is none of them.
TimingFormat DetectTimingFormat(const std::string& text, const std::string& source);

// Reads `path` in whatever format it is. With `walls`, the processes it
// describes (JUnit suites, trace runs) are appended there too; the other
// formats know no processes.
std::vector<TimingRecord> ReadTimingFile(const std::string& path,
                                         std::vector<ProcessWall>* walls = nullptr);

}  // namespace testmap::timings
