// `testmap index verify`: checks the invariants every ingestion must keep.
//
//   - every op_tests edge has its test_ops twin with the same value, and
//     the other way round (the two directions never disagree);
//   - every key and value decodes; every operator name parses;
//   - every edge and outcome names a test that has a test record, and a
//     run that has a run record (static edges use the run "static");
//   - every generic -> test link points at a test whose record names that
//     generic id; every test record's key equals its nodeid;
//   - the stored counters (index_counters.h), when there are any, equal a
//     recount.
#pragma once

#include <string>
#include <vector>

#include "indexer/index_store.h"

namespace testmap::indexer {

struct VerifyReport {
  std::vector<std::string> problems;  // at most `max_problems`, then a count
  size_t problem_count = 0;
  size_t tests = 0, generic_links = 0, edges = 0, outcomes = 0, runs = 0;
  bool ok() const { return problem_count == 0; }
};

VerifyReport VerifyIndex(const IndexStore& store, size_t max_problems = 50);

}  // namespace testmap::indexer
