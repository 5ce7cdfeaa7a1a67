#include "indexer/timings/trace_shard_reader.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "indexer/timings/nodeid_parts.h"
#include "indexer/timings/read_file_text.h"
#include "indexer/timings/timing_error.h"

namespace testmap::indexer {
namespace {

constexpr const char* kFormat = "testmap-trace";
constexpr int kVersion = 1;

}  // namespace

bool LooksLikeTraceShard(const std::string& text) {
  // Cheap first: the tracer writes compact JSON, so a shard starts with
  // {"type". Only then parse the first line (never a whole big document).
  size_t key = text.find_first_not_of(" \t\r\n", text.find('{') + 1);
  if (key == std::string::npos || text.compare(key, 6, "\"type\"") != 0) return false;
  std::string first = text.substr(0, text.find('\n'));
  nlohmann::json j = nlohmann::json::parse(first, nullptr, /*allow_exceptions=*/false);
  return j.is_object() && j.contains("type") && j["type"].is_string();
}

std::vector<TimingRecord> ParseTraceShard(const std::string& text, const std::string& source) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw TimingError(source, 0, "empty timing file");
  }
  std::vector<TimingRecord> out;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json rec = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (rec.is_discarded()) {
      if (in.eof() && text.back() != '\n') break;  // a write cut short by a crash
      throw TimingError(source, n, "not a JSON record");
    }
    if (!rec.is_object() || !rec.contains("type") || !rec["type"].is_string()) {
      throw TimingError(source, n, "record without a string `type` field");
    }
    const std::string type = rec["type"];
    if (type == "run") {
      if (rec.value("format", "") != kFormat || rec.value("version", 0) != kVersion) {
        throw TimingError(source, n,
                          "trace format " + rec.value("format", std::string("?")) + " version " +
                              std::to_string(rec.value("version", 0)) + ", this reader knows " +
                              kFormat + " version " + std::to_string(kVersion));
      }
      continue;
    }
    if (type != "test") continue;  // `begin`: its `test` record follows
    if (!rec.contains("nodeid") || !rec["nodeid"].is_string()) {
      throw TimingError(source, n, "test record without a nodeid");
    }
    TimingRecord r;
    r.id = rec["nodeid"];
    NodeIdParts parts = SplitNodeId(r.id);
    r.file = FileKey(parts.path);
    r.cls = parts.cls;
    r.source = source;
    r.line = n;
    r.outcome = OutcomeFromName(rec.value("outcome", std::string("passed")));
    const nlohmann::json& duration = rec.contains("duration") ? rec["duration"] : nlohmann::json();
    if (duration.is_null()) {
      r.outcome = Outcome::kSkipped;  // crashed: untimed
    } else if (!duration.is_number()) {
      throw TimingError(source, n, "duration of " + r.id + " is not a number: " + duration.dump());
    } else {
      r.seconds = duration.get<double>();
      CheckDuration(r.seconds, source, n, r.id);
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<TimingRecord> ReadTraceShard(const std::string& path) {
  return ParseTraceShard(ReadFileText(path), path);
}

}  // namespace testmap::indexer
