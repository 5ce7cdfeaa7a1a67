// The operator x dtype coverage of an index: for every operator (rows, as
// `testmap ops` names them: the overload, or the packet of static evidence)
// and every dtype (columns), the tests that ran the operator with a tensor
// of that dtype, and the "any" column: the tests that ran it at all.
//
// Filters on the page apply per observation, as `testmap query` does: a
// test counts in a cell under "evidence compile" when one of its
// observations of that operator with that dtype came from a compiled graph.
// So each (cell, test) entry keeps the set of facets (evidence, role) its
// observations had, as a bit mask over `facets`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "indexer/index_reader.h"

namespace testmap::report {

// What a page filter selects on. `role` is "" in an index whose edges say
// no role (the page then offers no role filter).
struct Facet {
  std::string evidence;  // eager | compile | static
  std::string role;      // test | assert | inputs | setup | teardown | ""
  bool operator==(const Facet&) const = default;
};

struct CellEntry {
  uint32_t test = 0;        // index into CoverageMatrix::tests
  uint32_t facet_mask = 0;  // bit i: facets[i] observed
};

struct CoverageCell {
  int dtype = -1;                  // index into CoverageMatrix::dtypes; -1: the "any" column
  std::vector<CellEntry> entries;  // sorted by test
};

struct CoverageRow {
  std::string op;
  // The "any" cell first, then one per dtype seen, by dtype index.
  std::vector<CoverageCell> cells;
  const CoverageCell& any() const { return cells.front(); }
};

struct CoverageMatrix {
  std::vector<std::string> tests;   // node ids with any edge, sorted
  std::vector<std::string> dtypes;  // columns: dtypes seen, in c10::ScalarType order
  std::vector<Facet> facets;        // at most kMaxFacets, sorted
  std::vector<CoverageRow> rows;    // sorted by operator
  size_t edges = 0;                 // op-test-run edges read
};

// Evidence kinds x roles: 3 x 5 today, and a mask holds 32.
inline constexpr size_t kMaxFacets = 32;

// One walk over the index's op_tests column family. Throws core::InputError
// when the index holds more distinct facets than a mask holds.
CoverageMatrix ReadCoverage(const indexer::IndexReader& index);

}  // namespace testmap::report
