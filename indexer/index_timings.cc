#include "indexer/index_timings.h"

#include <nlohmann/json.hpp>

#include "core/node_id.h"
#include "indexer/index_layout.h"

namespace testmap::indexer {

std::vector<timings::TimingRecord> ReadIndexTimings(const IndexStore& store) {
  std::vector<timings::TimingRecord> out;
  store.Scan(Cf::kOutcomes, "", [&](std::string_view key, std::string_view value) {
    auto fields = SplitKey(key);
    auto rec = nlohmann::json::parse(value, nullptr, false);
    if (fields.size() != 2 || !rec.is_object()) return true;  // `index verify` reports these
    timings::TimingRecord r;
    r.id = std::string(fields[0]);
    core::NodeId parts = core::NodeId::Parse(r.id);
    r.file = core::FileKey(parts.path);
    r.cls = parts.cls;
    r.source = store.dir() + " (run " + std::string(fields[1]) + ")";
    // pytest's own reading of outcomes, as the shard reader does.
    std::string outcome = rec.value("outcome", std::string("passed"));
    r.outcome = timings::OutcomeFromName(outcome);
    if (rec.contains("duration") && rec["duration"].is_number()) {
      r.seconds = rec["duration"].get<double>();
    } else {
      r.outcome = timings::Outcome::kSkipped;  // crashed: untimed, estimated instead
    }
    out.push_back(std::move(r));
    return true;
  });
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
  return out;
}

void AppendIndexTimings(const IndexStore& store, timings::TimingInput& input) {
  timings::TimingInput more;
  more.records = ReadIndexTimings(store);
  input.Append(std::move(more));
}

}  // namespace testmap::indexer
