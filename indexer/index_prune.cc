#include "indexer/index_prune.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_set>

namespace testmap::indexer {
namespace {

// The run record's start time (trace metadata), "" when it has none.
std::string StartTime(std::string_view record) {
  auto r = nlohmann::json::parse(record, nullptr, /*allow_exceptions=*/false);
  if (!r.is_object() || !r.contains("metadata") || !r["metadata"].is_object()) return "";
  const auto& start = r["metadata"].value("start_time", nlohmann::json());
  return start.is_string() ? start.get<std::string>() : "";
}

std::string_view LastField(std::string_view key) {
  size_t sep = key.rfind('\0');
  return sep == std::string_view::npos ? key : key.substr(sep + 1);
}

std::string_view FirstField(std::string_view key) { return key.substr(0, key.find('\0')); }

}  // namespace

PruneReport PruneRuns(IndexStore& store, size_t keep_runs, bool dry_run) {
  PruneReport report;
  std::vector<std::pair<std::string, std::string>> runs;  // (start time, id)
  store.Scan(Cf::kRuns, "", [&](std::string_view key, std::string_view value) {
    runs.emplace_back(StartTime(value), std::string(key));
    return true;
  });
  std::sort(runs.begin(), runs.end());  // oldest first; ties by id, the same on every machine
  size_t drop = runs.size() > keep_runs ? runs.size() - keep_runs : 0;
  report.runs_kept = runs.size() - drop;
  std::unordered_set<std::string> pruned;
  for (size_t i = 0; i < drop; ++i) {
    pruned.insert(runs[i].second);
    report.runs_removed.push_back(runs[i].second);
  }
  if (pruned.empty()) return report;

  std::vector<std::pair<Cf, std::string>> keys;
  std::unordered_set<std::string> referenced;  // tests something still refers to
  auto is_pruned = [&](std::string_view key) {
    return pruned.count(std::string(LastField(key))) > 0;
  };
  store.Scan(Cf::kOutcomes, "", [&](std::string_view key, std::string_view) {
    if (is_pruned(key)) {
      keys.emplace_back(Cf::kOutcomes, std::string(key));
      ++report.outcomes_removed;
    } else {
      referenced.insert(std::string(FirstField(key)));
    }
    return true;
  });
  store.Scan(Cf::kOpTests, "", [&](std::string_view key, std::string_view) {
    if (is_pruned(key)) {
      keys.emplace_back(Cf::kOpTests, std::string(key));
      ++report.edges_removed;
    }
    return true;
  });
  store.Scan(Cf::kTestOps, "", [&](std::string_view key, std::string_view) {
    if (is_pruned(key)) {
      keys.emplace_back(Cf::kTestOps, std::string(key));
      ++report.edges_removed;
    } else {
      referenced.insert(std::string(FirstField(key)));
    }
    return true;
  });
  store.Scan(Cf::kTests, "", [&](std::string_view key, std::string_view value) {
    if (!referenced.count(std::string(key)) &&
        value.find("\"origin\":\"trace\"") != std::string_view::npos) {
      keys.emplace_back(Cf::kTests, std::string(key));
      ++report.tests_removed;
    }
    return true;
  });
  for (const auto& id : report.runs_removed) keys.emplace_back(Cf::kRuns, id);
  report.keys_removed = keys.size();
  // The stored counts no longer hold: without them readers count by walking
  // and the next ingest counts once and stores them (index_counters.h).
  if (!keys.empty()) keys.emplace_back(Cf::kDefault, kCountersKey);
  if (!dry_run) store.Delete(keys);
  return report;
}

}  // namespace testmap::indexer
