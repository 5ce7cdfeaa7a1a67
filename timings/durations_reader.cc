#include "timings/durations_reader.h"

#include <set>

#include "core/errors.h"
#include "core/node_id.h"
#include "core/read_file.h"
#include "timings/strict_json.h"

namespace testmap::timings {
namespace {

TimingRecord MakeRecord(const std::string& nodeid, const nlohmann::json& value,
                        const std::string& text, const std::string& source) {
  int line = LineOfKey(text, nodeid);
  if (nodeid.empty()) throw core::InputError(source, line, "empty node id");
  if (!value.is_number()) {
    throw core::InputError(source, line,
                           "duration of " + nodeid + " is not a number: " + value.dump());
  }
  TimingRecord r;
  r.id = nodeid;
  r.seconds = value.get<double>();
  CheckDuration(r.seconds, source, line, nodeid);
  core::NodeId parts = core::NodeId::Parse(nodeid);
  r.file = core::FileKey(parts.path);
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
        throw core::InputError(source, 0, "expected [nodeid, seconds] pairs, got " + pair.dump());
      }
      const std::string nodeid = pair[0].get<std::string>();
      if (!seen.insert(nodeid).second) {
        throw core::InputError(source, LineOfKey(text, nodeid, 1), "duplicate node id " + nodeid);
      }
      out.push_back(MakeRecord(nodeid, pair[1], text, source));
    }
    return out;
  }
  throw core::InputError(source, 1, "expected a JSON object {nodeid: seconds}");
}

std::vector<TimingRecord> ReadTestDurations(const std::string& path) {
  return ParseTestDurations(core::ReadInputFile(path), path);
}

}  // namespace testmap::timings
