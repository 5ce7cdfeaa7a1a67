#include "timings/timing_file_reader.h"

#include "core/errors.h"
#include "core/read_file.h"
#include "core/trace_reader.h"
#include "timings/durations_reader.h"
#include "timings/junit_reader.h"
#include "timings/line_counter.h"
#include "timings/pytorch_times_reader.h"
#include "timings/trace_timings_reader.h"

namespace testmap::timings {

const char* TimingFormatName(TimingFormat format) {
  switch (format) {
    case TimingFormat::kJUnitXml:
      return "junit-xml";
    case TimingFormat::kTestDurations:
      return "test-durations";
    case TimingFormat::kTestTimes:
      return "test-times";
    case TimingFormat::kTraceShard:
      return "trace-shard";
  }
  return "unknown";
}

TimingFormat DetectTimingFormat(const std::string& text, const std::string& source) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw core::InputError(source, 0, "empty timing file");
  if (text[first] == '<') return TimingFormat::kJUnitXml;
  if (text[first] == '[') return TimingFormat::kTestDurations;
  if (core::LooksLikeTrace(text)) return TimingFormat::kTraceShard;
  if (text[first] != '{') {
    throw core::InputError(
        source, LineCounter(text).LineAt(first),
        "not a timing file (expected JUnit XML, .test_durations or test-times.json)");
  }
  // Peek at the first value: a number means {nodeid: seconds}; an object
  // means {job: {...}}. Skipping the first key by hand is enough here; the
  // real parse that follows reports any syntax error properly.
  size_t colon = text.find(':', first);
  while (colon != std::string::npos) {
    // The colon must be outside the key string (node ids contain "::").
    size_t quote_open = text.find('"', first);
    size_t quote_close = quote_open;
    while (quote_close != std::string::npos) {
      quote_close = text.find('"', quote_close + 1);
      if (quote_close == std::string::npos || text[quote_close - 1] != '\\') break;
    }
    if (quote_close == std::string::npos) break;
    colon = text.find(':', quote_close);
    if (colon == std::string::npos) break;
    size_t value = text.find_first_not_of(" \t\r\n", colon + 1);
    if (value != std::string::npos && text[value] == '{') return TimingFormat::kTestTimes;
    return TimingFormat::kTestDurations;
  }
  return TimingFormat::kTestDurations;  // "{}" or broken: let the parser say
}

std::vector<TimingRecord> ReadTimingFile(const std::string& path, std::vector<ProcessWall>* walls) {
  std::string text = core::ReadInputFile(path);
  switch (DetectTimingFormat(text, path)) {
    case TimingFormat::kJUnitXml:
      return ParseJUnitXml(text, path, walls);
    case TimingFormat::kTestDurations:
      return ParseTestDurations(text, path);
    case TimingFormat::kTestTimes:
      return ParseTestTimes(text, path);
    case TimingFormat::kTraceShard:
      return ParseTraceShard(text, path, walls);
  }
  return {};
}

}  // namespace testmap::timings
