// The details of matched tests: one batched read of their summaries
// (indexer/index_reader.h: two forward cursors over sorted ids).
#include "mapper/query/query.h"

namespace testmap::query {

void FillTestDetails(const indexer::IndexReader& index, std::vector<TestMatch>& tests) {
  std::vector<std::string> ids;
  ids.reserve(tests.size());
  for (const auto& m : tests) ids.push_back(m.nodeid);
  auto summaries = index.TestSummaries(ids);
  for (size_t i = 0; i < tests.size(); ++i) {
    auto& m = tests[i];
    auto& s = summaries[i];
    m.generic_id = std::move(s.generic_id);
    m.file = std::move(s.file);
    m.line_start = s.line_start;
    m.line_end = s.line_end;
    m.outcome = std::move(s.outcome);
    m.duration = s.duration;
    m.runs = s.runs;
  }
}

}  // namespace testmap::query
