// `testmap config explain`: the mode a test_suite_config gives each
// instantiated test of the index, and which entry (or default) decided it
// (config_rules.h), with counts per mode, so that a reviewer sees what a
// config change does before CI runs it.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "indexer/index_store.h"
#include "indexer/index_test_facts.h"
#include "mapper/config/config_rules.h"

namespace testmap::config {

struct ExplainedTest {
  std::string nodeid;
  std::string file;
  std::string generic;  // `Class::method`, as a config names it ("" when only traced)
  bool governed = false;
  Mode mode = kUnlistedDefaultMode;
  std::string decided_by;
  std::string rule;
};

struct Explanation {
  std::string config;
  std::vector<ExplainedTest> tests;      // sorted by node id
  std::map<std::string, size_t> counts;  // mode name (or "not governed") -> tests
};

struct ExplainRequest {
  std::string root_token = "${TORCH_ROOT}";
  std::string test;    // a node id or generic id; "" = every test
  std::string device;  // only tests instantiated for this device; "" = all
};

// What the rules know of an indexed test. A test only traced (no scan
// record) gets the generic method its node id suggests.
TestFacts ConfigFacts(const indexer::TestFacts& t);

// Throws core::UnknownNameError when `test` names no test of the index.
Explanation Explain(const indexer::IndexStore& store, const Config& config,
                    const ExplainRequest& request);

nlohmann::json ExplanationJson(const Explanation& e);
// table | json | jsonl
void RenderExplanation(const Explanation& e, const std::string& format, std::ostream& out);

}  // namespace testmap::config
