// `testmap ops`: every operator in the index with the tests that run it,
// the dtypes, devices and evidence seen: the coverage overview (which ops
// does the suite exercise at all, and how well).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "indexer/index_reader.h"

namespace testmap::query {

struct OpCoverage {
  std::string op;  // canonical overload (or packet, for static evidence)
  std::set<std::string> tests, dtypes, evidence, devices;
};

// Sorted by `sort`: "tests" (most first, then name) or "name".
std::vector<OpCoverage> ReadOpCoverage(const indexer::IndexReader& index, const std::string& sort);

// One row as `testmap ops --format json` lists it: {op, tests (a count),
// dtypes, evidence, devices}.
nlohmann::json OpCoverageJson(const OpCoverage& row);

// Formats: table, json, jsonl, yaml.
void RenderOpCoverage(const std::vector<OpCoverage>& ops, const std::string& format,
                      std::ostream& out);

}  // namespace testmap::query
