// What one op-test edge (one operator, one test, one run) observed: a list
// of (evidence, device, dtypes, count) tuples, one per distinct way the test
// called the operator. Kept as compact text rather than JSON because a query
// decodes thousands of these per answer:
//
//   TUPLE ('\n' TUPLE)*      TUPLE = EVIDENCE '\t' DEVICE '\t' DTYPES '\t' COUNT
//
// EVIDENCE is `eager`, `compile` or `static`; DEVICE is empty when no tensor
// was involved; DTYPES are canonical dtype names joined by ',' in argument
// order (a dtype combination); COUNT is how many calls it covers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::indexer {

struct EdgeTuple {
  std::string evidence;             // eager | compile | static
  std::string device;               // "cpu", "cuda", a backend name, or ""
  std::vector<std::string> dtypes;  // one dtype combination
  uint64_t count = 0;

  bool operator==(const EdgeTuple&) const = default;
  auto operator<=>(const EdgeTuple&) const = default;
};

// Sorted, duplicates merged (counts added): the same observations always
// encode to the same bytes, which makes ingestion idempotent.
std::string EncodeEdge(std::vector<EdgeTuple> tuples);
// The same, without copying the tuples (ingestion encodes millions).
std::string EncodeEdge(std::vector<const EdgeTuple*> tuples);
// Throws IndexError on a malformed value (index verify reports it).
std::vector<EdgeTuple> DecodeEdge(std::string_view value);

}  // namespace testmap::indexer
