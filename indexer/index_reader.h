// The typed read API over an index: what mapper/ and cli/ use. Everything
// here is a prefix seek (index_layout.h) except the For-every walks, which
// read a whole column family and are meant for `ops`, `stats` and `verify`.
//
//   auto store = IndexStore::Open(".testmap", OpenMode::kRead);
//   IndexReader index(*store);
//   index.ForEachEdgeOfOp("aten::_scaled_mm", std::nullopt, [](const Edge& e) {...});
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "indexer/edge_value.h"
#include "indexer/index_store.h"

namespace testmap::indexer {

// One operator-test edge as stored: one operator overload, one test, one
// run, and what the test did with the operator in that run.
struct Edge {
  std::string packet;    // "aten::add"
  std::string overload;  // "Tensor", "" (default overload), "*" (static: packet only)
  std::string nodeid;
  std::string run;  // run id (runs column family), "static" for scan evidence
  std::vector<EdgeTuple> tuples;

  // "aten::add.Tensor", "aten::_scaled_mm"; the packet for static edges.
  std::string Op() const;
};

// One outcome of one test in one run, as JSON text (outcome, duration,
// phases, start, worker, crash).
struct OutcomeRecord {
  std::string run;
  std::string json;
};

// What a query shows of a test besides its edges.
struct TestSummary {
  std::string generic_id;  // "" when only traced
  std::string file;
  int line_start = 0, line_end = 0;
  // The latest run's (by start time) outcome and duration.
  std::string outcome;
  std::optional<double> duration;
  size_t runs = 0;  // outcome records over all runs
};

class IndexReader {
 public:
  explicit IndexReader(const IndexStore& store) : store_(store) {}

  // Edges of `packet`: every overload (and static evidence) when `overload`
  // is nullopt, else only that overload ("" = the default overload).
  // Ordered by overload, then node id, then run.
  void ForEachEdgeOfOp(const std::string& packet, const std::optional<std::string>& overload,
                       const std::function<void(const Edge&)>& fn) const;

  // Edges of one test, ordered by operator.
  std::vector<Edge> EdgesOfTest(const std::string& nodeid) const;

  // Every distinct operator with edges, canonical spelling, sorted; static
  // evidence appears as its packet. Costs one seek per operator.
  std::vector<std::string> KnownOps() const;

  // The test record (scan record, or the minimal one of a traced-only
  // test) as JSON text.
  std::optional<std::string> TestRecord(const std::string& nodeid) const;
  // Node ids instantiated from a generic test id, sorted.
  std::vector<std::string> TestsOfGeneric(const std::string& generic_id) const;
  std::vector<OutcomeRecord> Outcomes(const std::string& nodeid) const;
  // Summaries of many tests at once; `nodeids` must be sorted ascending
  // (two cursors then only ever seek forward). Parsed with simdjson: a
  // query can list tens of thousands of tests.
  std::vector<TestSummary> TestSummaries(const std::vector<std::string>& nodeids) const;
  // The run record (metadata of the trace run) as JSON text.
  std::optional<std::string> Run(const std::string& run_id) const;

  // Whole-column walks.
  void ForEachEdge(const std::function<void(const Edge&)>& fn) const;
  void ForEachTest(
      const std::function<void(const std::string& nodeid, const std::string& json)>& fn) const;
  void ForEachRun(
      const std::function<void(const std::string& id, const std::string& json)>& fn) const;
  size_t CountKeys(Cf cf) const;

  const IndexStore& store() const { return store_; }

 private:
  const IndexStore& store_;
};

// Parses an op_tests key and value (throws core::InputError when malformed).
Edge EdgeFromOpTestsKey(std::string_view key, std::string_view value);
// Parses a test_ops key and value.
Edge EdgeFromTestOpsKey(std::string_view key, std::string_view value);

}  // namespace testmap::indexer
