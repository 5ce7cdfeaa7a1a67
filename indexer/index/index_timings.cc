#include "indexer/index/index_timings.h"

#include <nlohmann/json.hpp>

#include "indexer/index/index_layout.h"
#include "indexer/timings/nodeid_parts.h"

namespace testmap::indexer {

std::vector<TimingRecord> ReadIndexTimings(const IndexStore& store) {
  std::vector<TimingRecord> out;
  store.Scan(Cf::kOutcomes, "", [&](std::string_view key, std::string_view value) {
    auto fields = SplitKey(key);
    auto rec = nlohmann::json::parse(value, nullptr, false);
    if (fields.size() != 2 || !rec.is_object()) return true;  // `index verify` reports these
    TimingRecord r;
    r.id = std::string(fields[0]);
    NodeIdParts parts = SplitNodeId(r.id);
    r.file = FileKey(parts.path);
    r.cls = parts.cls;
    r.source = store.dir() + " (run " + std::string(fields[1]) + ")";
    // pytest's own reading of outcomes, as the shard reader does.
    std::string outcome = rec.value("outcome", std::string("passed"));
    r.outcome = outcome == "failed"                            ? Outcome::kFailed
                : outcome == "error"                           ? Outcome::kError
                : outcome == "skipped" || outcome == "crashed" ? Outcome::kSkipped
                                                               : Outcome::kPassed;
    if (rec.contains("duration") && rec["duration"].is_number()) {
      r.seconds = rec["duration"].get<double>();
    } else {
      r.outcome = Outcome::kSkipped;  // crashed: untimed, estimated instead
    }
    out.push_back(std::move(r));
    return true;
  });
  return out;
}

}  // namespace testmap::indexer
