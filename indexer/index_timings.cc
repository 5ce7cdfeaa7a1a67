#include "indexer/index_timings.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/node_id.h"
#include "indexer/index_layout.h"

namespace testmap::indexer {

namespace {

// How a run's records and walls name where they came from.
std::string RunSource(const IndexStore& store, std::string_view run) {
  return store.dir() + " (run " + std::string(run) + ")";
}

}  // namespace

timings::TimingInput ReadIndexTimings(const IndexStore& store) {
  struct Outcome {
    std::string run;
    std::optional<double> start;
    timings::TimingRecord record;
  };
  std::vector<Outcome> outcomes;
  store.Scan(Cf::kOutcomes, "", [&](std::string_view key, std::string_view value) {
    auto fields = SplitKey(key);
    auto rec = nlohmann::json::parse(value, nullptr, false);
    if (fields.size() != 2 || !rec.is_object()) return true;  // `index verify` reports these
    Outcome o;
    o.run = std::string(fields[1]);
    if (rec.contains("start") && rec["start"].is_number()) o.start = rec["start"].get<double>();
    timings::TimingRecord& r = o.record;
    r.id = std::string(fields[0]);
    core::NodeId parts = core::NodeId::Parse(r.id);
    r.file = core::FileKey(parts.path);
    r.cls = parts.cls;
    r.source = RunSource(store, o.run);
    // pytest's own reading of outcomes, as the shard reader does.
    std::string outcome = rec.value("outcome", std::string("passed"));
    r.outcome = timings::OutcomeFromName(outcome);
    if (rec.contains("duration") && rec["duration"].is_number()) {
      r.seconds = rec["duration"].get<double>();
    } else {
      r.outcome = timings::Outcome::kSkipped;  // crashed: untimed, estimated instead
    }
    outcomes.push_back(std::move(o));
    return true;
  });
  // A run's records together, as in its shard, so that its wall's record
  // range is one range.
  std::stable_sort(outcomes.begin(), outcomes.end(),
                   [](const Outcome& a, const Outcome& b) { return a.run < b.run; });
  timings::TimingInput in;
  std::vector<std::string_view> with_tests;  // sorted, as the outcomes are
  for (size_t i = 0; i < outcomes.size();) {
    const std::string& run = outcomes[i].run;
    with_tests.push_back(run);
    timings::TraceRunWall wall;
    if (auto record = store.Get(Cf::kRuns, run))
      wall.Start(*record, outcomes[i].record.source, 0, in.records.size());
    for (; i < outcomes.size() && outcomes[i].run == run; ++i) {
      wall.AddTest(outcomes[i].record.file, outcomes[i].record.seconds, outcomes[i].start);
      in.records.push_back(std::move(outcomes[i].record));
    }
    if (auto w = wall.Finish(in.records.size())) in.walls.push_back(std::move(*w));
  }
  // Runs of no tests that collected (a traced `pytest --collect-only`): a
  // wall each, as the shard reader makes one (Finish makes none for a run
  // that neither ran nor collected).
  store.Scan(Cf::kRuns, "", [&](std::string_view run, std::string_view record) {
    if (std::binary_search(with_tests.begin(), with_tests.end(), run)) return true;
    timings::TraceRunWall wall;
    if (wall.Start(record, RunSource(store, run), 0, in.records.size()))
      if (auto w = wall.Finish(in.records.size())) in.walls.push_back(std::move(*w));
    return true;
  });
  std::vector<timings::TimingRecord>& out = in.records;
  // Records ingested from timing files, as their readers produced them.
  store.Scan(Cf::kTimings, "", [&](std::string_view, std::string_view value) {
    auto rec = nlohmann::json::parse(value, nullptr, false);
    if (!rec.is_object()) return true;
    timings::TimingRecord r;
    r.id = rec.value("id", "");
    r.file = rec.value("file", "");
    r.cls = rec.value("class", "");
    r.level = timings::TimingLevelFromName(rec.value("level", "test"));
    r.seconds = rec.value("seconds", 0.0);
    r.outcome = timings::OutcomeFromName(rec.value("outcome", "passed"));
    r.rerun = rec.value("rerun", false);
    r.job = rec.value("job", "");
    r.config = rec.value("config", "");
    r.feature = rec.value("feature", "");
    r.source = rec.value("source", "");
    r.line = rec.value("line", 0);
    out.push_back(std::move(r));
    return true;
  });
  return in;
}

void AppendIndexTimings(const IndexStore& store, timings::TimingInput& input) {
  input.Append(ReadIndexTimings(store));
}

}  // namespace testmap::indexer
