#include "indexer/timings/test_durations_reader.h"

#include <set>

#include "indexer/timings/json_text.h"
#include "indexer/timings/nodeid_parts.h"
#include "indexer/timings/read_file_text.h"
#include "indexer/timings/timing_error.h"

namespace testmap::indexer {
namespace {

TimingRecord MakeRecord(const std::string& nodeid, const nlohmann::json& value,
                        const std::string& text, const std::string& source) {
  int line = LineOfKey(text, nodeid);
  if (nodeid.empty()) throw TimingError(source, line, "empty node id");
  if (!value.is_number()) {
    throw TimingError(source, line, "duration of " + nodeid + " is not a number: " + value.dump());
  }
  TimingRecord r;
  r.id = nodeid;
  r.seconds = value.get<double>();
  CheckDuration(r.seconds, source, line, nodeid);
  NodeIdParts parts = SplitNodeId(nodeid);
  r.file = FileKey(parts.path);
  r.cls = parts.cls;
  r.level = parts.name.empty() ? TimingLevel::kFile : TimingLevel::kTest;
  r.source = source;
  r.line = line;
  return r;
}

}  // namespace

std::vector<TimingRecord> ParseTestDurations(const std::string& text, const std::string& source) {
  nlohmann::json doc = ParseJsonStrict(text, source);
  std::vector<TimingRecord> out;
  if (doc.is_object()) {
    out.reserve(doc.size());
    for (const auto& [nodeid, value] : doc.items())
      out.push_back(MakeRecord(nodeid, value, text, source));
    return out;
  }
  if (doc.is_array()) {
    // Pre-0.3 pytest-split: [[nodeid, seconds], ...]. Duplicates are not
    // caught by the JSON layer here, so check them.
    std::set<std::string> seen;
    for (const auto& pair : doc) {
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string()) {
        throw TimingError(source, 0, "expected [nodeid, seconds] pairs, got " + pair.dump());
      }
      const std::string nodeid = pair[0].get<std::string>();
      if (!seen.insert(nodeid).second) {
        throw TimingError(source, LineOfKey(text, nodeid, 1), "duplicate node id " + nodeid);
      }
      out.push_back(MakeRecord(nodeid, pair[1], text, source));
    }
    return out;
  }
  throw TimingError(source, 1, "expected a JSON object {nodeid: seconds}");
}

std::vector<TimingRecord> ReadTestDurations(const std::string& path) {
  return ParseTestDurations(ReadFileText(path), path);
}

}  // namespace testmap::indexer
