// `testmap ops`: every operator in the index with the tests that run it,
// the dtypes, devices and evidence seen: the coverage overview (which ops
// does the suite exercise at all, and how well).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "indexer/index_reader.h"

namespace testmap::query {

struct OpCoverage {
  std::string op;  // canonical overload (or packet, for static evidence)
  // Tests running it in their own code (role `test`), as `query` counts by
  // default; and in any role (assertEqual, make_tensor, setup... included).
  std::set<std::string> tests, tests_any_role;
  std::map<std::string, std::set<std::string>> tests_by_role;
  std::set<std::string> dtypes, evidence, devices;
};

// Sorted by `sort`: "tests" (most tests in role `test` first, then most in
// any role, then name) or "name".
std::vector<OpCoverage> ReadOpCoverage(const indexer::IndexReader& index, const std::string& sort);

// One row as `testmap ops --format json` lists it: {op, tests (a count, role
// `test`), tests_any_role, tests_by_role, roles, dtypes, evidence, devices}.
nlohmann::json OpCoverageJson(const OpCoverage& row);

// Formats: table, json, jsonl, yaml.
void RenderOpCoverage(const std::vector<OpCoverage>& ops, const std::string& format,
                      std::ostream& out);

}  // namespace testmap::query
