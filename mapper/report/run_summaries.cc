#include "mapper/report/run_summaries.h"

#include <algorithm>

#include "core/errors.h"

namespace testmap::report {

std::vector<RunSummary> ReadRunSummaries(const indexer::IndexReader& index) {
  using nlohmann::json;
  std::vector<RunSummary> runs;
  std::map<std::string, size_t> at;
  index.ForEachRun([&](const std::string& id, const std::string& text) {
    json record = json::parse(text, nullptr, false);
    if (!record.is_object())
      throw core::InputError(index.store().dir(), 0, "run record " + id + " is not JSON");
    at[id] = runs.size();
    runs.push_back({id, std::move(record), {}, 0});
  });
  index.ForEachTest([&](const std::string& nodeid, const std::string&) {
    for (const indexer::OutcomeRecord& o : index.Outcomes(nodeid)) {
      auto it = at.find(o.run);
      if (it == at.end()) continue;  // index verify reports these
      RunSummary& run = runs[it->second];
      json rec = json::parse(o.json, nullptr, false);
      if (!rec.is_object()) continue;
      ++run.outcomes[rec.value("outcome", std::string("unknown"))];
      if (rec.contains("duration") && rec["duration"].is_number())
        run.seconds += rec["duration"].get<double>();
    }
  });
  auto start = [](const RunSummary& r) {
    const json& meta = r.record.contains("metadata") ? r.record["metadata"] : json::object();
    return meta.is_object() ? meta.value("start_time", std::string()) : std::string();
  };
  std::sort(runs.begin(), runs.end(), [&](const RunSummary& a, const RunSummary& b) {
    return std::make_pair(start(a), a.id) < std::make_pair(start(b), b.id);
  });
  return runs;
}

}  // namespace testmap::report
