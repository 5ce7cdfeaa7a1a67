// What one op-test edge (one operator, one test, one run) observed: a list
// of (evidence, role, device, dtypes, count) tuples, one per distinct way the
// test called the operator. Kept as compact text rather than JSON because a
// query decodes thousands of these per answer:
//
//   TUPLE ('\n' TUPLE)*   TUPLE = EVIDENCE '\t' ROLE '\t' DEVICE '\t' DTYPES '\t' COUNT
//
// EVIDENCE is `eager`, `compile` or `static`; ROLE one of core::kRoles
// (`test`, `assert`, `inputs`, `setup`, `teardown`); DEVICE is empty when no
// tensor was involved; DTYPES are canonical dtype names joined by ',' in
// argument order (a dtype combination); COUNT is how many calls it covers.
//
// Index schema 2 wrote tuples without ROLE (four fields); they decode as
// role `test`, what every observation of that time meant (index_layout.h).
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace testmap::indexer {

struct EdgeTuple {
  std::string evidence;             // eager | compile | static
  std::string device;               // "cpu", "cuda", a backend name, or ""
  std::vector<std::string> dtypes;  // one dtype combination
  uint64_t count = 0;
  std::string role = "test";  // one of core::kRoles

  bool operator==(const EdgeTuple&) const = default;
  auto operator<=>(const EdgeTuple&) const = default;
};

// Sorted, duplicates merged (counts added): the same observations always
// encode to the same bytes, which makes ingestion idempotent.
std::string EncodeEdge(std::vector<EdgeTuple> tuples);
// The same, without copying the tuples (ingestion encodes millions).
std::string EncodeEdge(std::vector<const EdgeTuple*> tuples);
// The same for any tuple-like type with `evidence`, `role`, `device`,
// `dtypes` and `count` (the trace reader's core::TraceOp views, straight
// from the parse).
template <class Tuple>
std::string EncodeEdgeOf(std::vector<const Tuple*> tuples);
// The same into `out` (replacing what it held), sorting `tuples` in place:
// a parse that encodes millions of edges reuses both buffers.
template <class Tuple>
void EncodeEdgeInto(std::vector<const Tuple*>& tuples, std::string& out);
// Throws core::InputError on a malformed value (index verify reports it).
std::vector<EdgeTuple> DecodeEdge(std::string_view value);
// The same into `out`, reusing its tuples' storage (a walk over thousands
// of edges then allocates for the first few only).
void DecodeEdgeInto(std::string_view value, std::vector<EdgeTuple>& out);

template <class Tuple>
void EncodeEdgeInto(std::vector<const Tuple*>& tuples, std::string& out) {
  auto key = [](const Tuple* t) { return std::tie(t->evidence, t->role, t->device, t->dtypes); };
  std::sort(tuples.begin(), tuples.end(),
            [&](const Tuple* a, const Tuple* b) { return key(a) < key(b); });
  out.clear();
  for (size_t i = 0; i < tuples.size(); ++i) {
    uint64_t count = tuples[i]->count;
    while (i + 1 < tuples.size() && key(tuples[i + 1]) == key(tuples[i]))
      count += tuples[++i]->count;
    const Tuple& t = *tuples[i];
    if (!out.empty()) out.push_back('\n');
    out += t.evidence;
    out.push_back('\t');
    out += t.role;
    out.push_back('\t');
    out += t.device;
    out.push_back('\t');
    for (size_t d = 0; d < t.dtypes.size(); ++d) {
      if (d) out.push_back(',');
      out += t.dtypes[d];
    }
    out.push_back('\t');
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, count).ptr);
  }
}

template <class Tuple>
std::string EncodeEdgeOf(std::vector<const Tuple*> tuples) {
  std::string out;
  EncodeEdgeInto(tuples, out);
  return out;
}

}  // namespace testmap::indexer
