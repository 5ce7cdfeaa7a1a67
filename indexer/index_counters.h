// The counts `testmap stats` reports, kept in the index itself (the
// `counters` key of the `default` column family, index_layout.h) so that
// stats is a few point reads instead of a walk over every key.
//
// Every ingest writes the new counts in the same atomic commit as the keys
// they count (ingest_counters.h works out the change), so they can never
// disagree with the index. A commit that does not carry them (any other
// writer through IndexStore::Commit) blanks them, and readers then count by
// walking, as they do on an index of schema 3 or older; the next ingest
// counts once and keeps them from then on. `index verify` recounts and
// compares.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "indexer/index_store.h"

namespace testmap::indexer {

struct IndexCounters {
  uint64_t tests = 0;           // keys of `tests`
  uint64_t generic_tests = 0;   // distinct generic ids of `generic`
  uint64_t traced_tests = 0;    // distinct tests with an outcome or a non-static edge
  uint64_t scanned_tests = 0;   // test records of origin `scan`
  uint64_t scanned_traced = 0;  // ... of which have an outcome
  uint64_t operators = 0;       // distinct Edge::Op() spellings
  uint64_t edges = 0;           // keys of `op_tests`
  uint64_t outcomes = 0;        // keys of `outcomes`
  // Edges whose value holds at least one observation of that evidence.
  std::map<std::string, uint64_t> edges_by_evidence;

  bool operator==(const IndexCounters&) const = default;
};

// JSON text, the value of the `counters` key.
std::string EncodeCounters(const IndexCounters& c);

// The stored counters; nullopt when the index keeps none (schema 3 or
// older, or blanked by a commit that did not keep them).
std::optional<IndexCounters> ReadCounters(const IndexStore& store);

// The same counts by walking every column family they describe.
IndexCounters CountIndex(const IndexStore& store);

// ReadCounters, else CountIndex.
IndexCounters CurrentCounters(const IndexStore& store);

// Calls `fn` once for each distinct EVIDENCE of an encoded edge value
// (edge_value.h), without decoding the rest.
template <class Fn>
void ForEachEvidenceOf(std::string_view value, Fn&& fn);

// The names of the counters that differ, "name: A != B" each ("" when equal).
std::string CountersDifference(const IndexCounters& a, const IndexCounters& b);

template <class Fn>
void ForEachEvidenceOf(std::string_view value, Fn&& fn) {
  // Tuples are sorted by evidence (EncodeEdge), so repeats are usually
  // adjacent; the first few are remembered, later ones looked up again.
  std::string_view seen[8];
  size_t n = 0;
  auto field = [&](size_t at, size_t* end) {
    size_t e = value.find('\n', at);
    *end = e == std::string_view::npos ? value.size() : e;
    size_t tab = value.find('\t', at);
    return value.substr(at, std::min(tab, *end) - at);
  };
  for (size_t at = 0, end = 0; at < value.size(); at = end + 1) {
    std::string_view evidence = field(at, &end);
    bool dup = false;
    for (size_t i = 0; i < n && !dup; ++i) dup = seen[i] == evidence;
    for (size_t before = 0, e = 0; n == 8 && !dup && before < at; before = e + 1)
      dup = field(before, &e) == evidence;
    if (dup) continue;
    if (n < 8) seen[n++] = evidence;
    fn(evidence);
  }
}

}  // namespace testmap::indexer
