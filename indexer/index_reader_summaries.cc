// IndexReader::TestSummaries: the per-test columns of a query answer.
#include <simdjson.h>

#include "indexer/index_layout.h"
#include "indexer/index_reader.h"
#include "indexer/latest_outcome.h"

namespace testmap::indexer {

std::vector<TestSummary> IndexReader::TestSummaries(const std::vector<std::string>& nodeids) const {
  std::vector<TestSummary> out(nodeids.size());
  auto tests = store_.NewCursor(Cf::kTests);
  auto outcomes = store_.NewCursor(Cf::kOutcomes);
  simdjson::dom::parser parser;
  for (size_t i = 0; i < nodeids.size(); ++i) {
    TestSummary& s = out[i];
    tests->Seek(nodeids[i]);
    if (tests->Valid() && tests->key() == nodeids[i]) {
      simdjson::dom::object rec;
      if (parser.parse(tests->value().data(), tests->value().size()).get_object().get(rec) ==
          simdjson::SUCCESS) {
        std::string_view text;
        int64_t n;
        if (rec["generic_id"].get_string().get(text) == simdjson::SUCCESS) s.generic_id = text;
        if (rec["file"].get_string().get(text) == simdjson::SUCCESS) s.file = text;
        if (rec["line_start"].get_int64().get(n) == simdjson::SUCCESS)
          s.line_start = static_cast<int>(n);
        if (rec["line_end"].get_int64().get(n) == simdjson::SUCCESS)
          s.line_end = static_cast<int>(n);
      }
    }
    std::string prefix = KeyPrefix({nodeids[i]});
    outcomes->Seek(prefix);
    LatestOutcome latest = ReadLatestOutcome(*outcomes, prefix, parser);
    s.outcome = std::move(latest.outcome);
    s.duration = latest.duration;
    s.runs = latest.runs;
  }
  return out;
}

}  // namespace testmap::indexer
