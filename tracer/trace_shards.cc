#include "tracer/trace_shards.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace testmap::tracer {

namespace fs = std::filesystem;

std::vector<std::string> ListShards(const std::string& dir) {
  std::vector<std::string> shards;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.starts_with("trace-") && name.ends_with(".jsonl"))
      shards.push_back(entry.path().string());
  }
  std::sort(shards.begin(), shards.end());
  return shards;
}

ShardSummary FinishShard(const std::string& path, const std::string& reason) {
  ShardSummary summary;
  summary.path = path;
  std::ifstream in(path);
  if (!in) throw TraceFormatError(path + ": cannot open");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  bool last_line_complete = true;
  {
    // A final line without '\n' was cut short by the crash: not an error.
    std::ifstream tail(path, std::ios::binary | std::ios::ate);
    auto size = static_cast<long long>(tail.tellg());
    if (size > 0) {
      tail.seekg(size - 1);
      last_line_complete = tail.get() == '\n';
    }
  }
  std::optional<nlohmann::json> pending;  // the begin record of the test in flight
  std::vector<nlohmann::json> crashed;
  std::set<std::tuple<std::string, std::string, std::string>> eager, compile;
  std::set<std::string> ops;
  auto crash = [&](const nlohmann::json& begin, const std::string& why) {
    crashed.push_back({{"type", "test"},
                       {"nodeid", begin.value("nodeid", "")},
                       {"outcome", "crashed"},
                       {"crash", {{"reason", why}}},
                       {"phases", nlohmann::json::object()},
                       {"duration", nullptr},
                       {"ops", nlohmann::json::array()},
                       {"worker", begin.value("worker", "")}});
  };
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = path + ":" + std::to_string(i + 1) + ": ";
    if (lines[i].find_first_not_of(" \t\r") == std::string::npos) continue;
    nlohmann::json rec;
    try {
      rec = nlohmann::json::parse(lines[i]);
    } catch (const nlohmann::json::parse_error& e) {
      if (i + 1 == lines.size() && !last_line_complete) break;
      throw TraceFormatError(where + "not a JSON record (" + e.what() + ")");
    }
    if (!rec.is_object() || !rec.contains("type") || !rec["type"].is_string()) {
      throw TraceFormatError(where + "record without a string `type` field");
    }
    const std::string type = rec["type"];
    if (type == "run") {
      if (rec.value("format", "") != "testmap-trace" || rec.value("version", 0) != 1) {
        throw TraceFormatError(where + "not testmap-trace version 1");
      }
      if (pending) crash(*pending, "process ended during the test");
      pending.reset();
    } else if (type == "begin") {
      if (pending) crash(*pending, "process ended during the test");
      pending = rec;
    } else if (type == "test") {
      if (pending && pending->value("nodeid", "") == rec.value("nodeid", "")) pending.reset();
      summary.nodeids.push_back(rec.value("nodeid", ""));
      std::string outcome = rec.value("outcome", "?");
      ++summary.outcomes[outcome];
      if (outcome == "crashed") summary.crashed.push_back(rec.value("nodeid", ""));
      if (rec.contains("ops") && rec["ops"].is_array()) {
        for (const auto& op : rec["ops"]) {
          if (!op.is_object() || !op.contains("op"))
            throw TraceFormatError(where + "op entry without `op`");
          auto key =
              std::make_tuple(op.value("op", ""), op.value("dtypes", nlohmann::json()).dump(),
                              op.value("device", nlohmann::json()).dump());
          (op.value("evidence", "eager") == "compile" ? compile : eager).insert(key);
          ops.insert(op.value("op", ""));
        }
      }
    } else {
      throw TraceFormatError(where + "unknown record type \"" + type + "\"");
    }
  }
  if (pending) crash(*pending, reason);
  if (!crashed.empty()) {
    std::ofstream out(path, std::ios::app);
    if (!last_line_complete) out << "\n";
    for (const auto& rec : crashed) {
      out << rec.dump() << "\n";
      ++summary.outcomes["crashed"];
      summary.crashed.push_back(rec["nodeid"]);
      summary.nodeids.push_back(rec["nodeid"]);
    }
  }
  summary.eager_ops = eager.size();
  summary.compile_ops = compile.size();
  summary.ops.assign(ops.begin(), ops.end());
  return summary;
}

}  // namespace testmap::tracer
