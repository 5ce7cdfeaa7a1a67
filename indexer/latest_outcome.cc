#include "indexer/latest_outcome.h"

namespace testmap::indexer {

void AdvanceTo(IndexCursor& cursor, std::string_view prefix) {
  // The next few keys are usually the ones wanted; past that, a seek is
  // cheaper than reading everything in between.
  for (int steps = 0; cursor.Valid() && cursor.key() < prefix; ++steps) {
    if (steps == 16) return cursor.Seek(prefix);
    cursor.Next();
  }
}

LatestOutcome ReadLatestOutcome(IndexCursor& cursor, std::string_view prefix,
                                simdjson::dom::parser& parser) {
  LatestOutcome out;
  double latest = -1;
  for (; cursor.Valid() && cursor.key().starts_with(prefix); cursor.Next()) {
    simdjson::dom::object rec;
    std::string_view v = cursor.value();
    if (parser.parse(v.data(), v.size()).get_object().get(rec) != simdjson::SUCCESS) continue;
    ++out.runs;
    double start = 0, duration = 0;
    if (rec["start"].get_double().get(start) != simdjson::SUCCESS) start = 0;
    if (start < latest) continue;
    latest = start;
    std::string_view outcome;
    out.outcome =
        rec["outcome"].get_string().get(outcome) == simdjson::SUCCESS ? std::string(outcome) : "";
    if (rec["duration"].get_double().get(duration) == simdjson::SUCCESS)
      out.duration = duration;
    else
      out.duration.reset();
  }
  return out;
}

}  // namespace testmap::indexer
