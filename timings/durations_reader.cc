#include "timings/durations_reader.h"

#include <unordered_map>

#include "core/errors.h"
#include "core/node_id.h"
#include "core/read_file.h"
#include "timings/json_document.h"

namespace testmap::timings {
namespace {

TimingRecord MakeRecord(const std::string& nodeid, const JsonValue& value, int line,
                        const std::string& source) {
  if (nodeid.empty()) throw core::InputError(source, line, "empty node id");
  if (!value.is_number()) {
    throw core::InputError(source, line,
                           "duration of " + nodeid + " is not a number: " + value.Describe());
  }
  TimingRecord r;
  r.id = nodeid;
  r.seconds = value.number;
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
  JsonValue doc = ParseJsonDocument(text, source);
  std::vector<TimingRecord> out;
  if (doc.is_object()) {
    out.reserve(doc.members.size());
    for (const auto& [nodeid, value] : doc.members)
      out.push_back(MakeRecord(nodeid, value, value.line, source));
    return out;
  }
  if (doc.is_array()) {
    // Pre-0.3 pytest-split: [[nodeid, seconds], ...]. Duplicates are not
    // caught by the JSON layer here, so check them.
    std::unordered_map<std::string, int> seen;
    out.reserve(doc.elements.size());
    for (const JsonValue& pair : doc.elements) {
      if (!pair.is_array() || pair.elements.size() != 2 || !pair.elements[0].is_string()) {
        throw core::InputError(source, pair.line,
                               "expected [nodeid, seconds] pairs, got " + pair.Describe());
      }
      const std::string& nodeid = pair.elements[0].string;
      if (auto [it, fresh] = seen.emplace(nodeid, pair.line); !fresh) {
        throw core::InputError(
            source, pair.line,
            "duplicate node id " + nodeid + " (first on line " + std::to_string(it->second) + ")");
      }
      out.push_back(MakeRecord(nodeid, pair.elements[1], pair.line, source));
    }
    return out;
  }
  throw core::InputError(source, doc.line, "expected a JSON object {nodeid: seconds}");
}

std::vector<TimingRecord> ReadTestDurations(const std::string& path) {
  return ParseTestDurations(core::ReadInputFile(path), path);
}

}  // namespace testmap::timings
