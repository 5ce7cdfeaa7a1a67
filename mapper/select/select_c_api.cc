#include "mapper/select/select_c_api.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/errors.h"
#include "core/node_id.h"
#include "indexer/index_reader.h"
#include "indexer/index_test_facts.h"
#include "mapper/config/config_explain.h"
#include "mapper/config/config_reader.h"
#include "mapper/config/config_rules.h"
#include "mapper/query/query.h"
#include "mapper/select/select_marks.h"

struct tm_select {
  std::unique_ptr<testmap::indexer::IndexStore> store;
  std::unique_ptr<testmap::indexer::IndexReader> index;
  std::optional<testmap::config::Config> config;
  std::optional<testmap::config::ConfigRules> rules;
  std::set<std::string> roles = {"test"};  // as `testmap query`'s default
};

namespace {

char* Copy(const std::string& s) {
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out) std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

void SetError(char** error, const std::string& message) {
  if (error) *error = Copy(message);
}

// What the rules know of a test the index has no record of: its node id.
testmap::config::TestFacts FactsFromNodeId(const std::string& nodeid) {
  testmap::indexer::TestFacts t;
  t.nodeid = nodeid;
  return testmap::config::ConfigFacts(t);
}

}  // namespace

extern "C" {

tm_select* tm_select_open(const char* index_dir, const char* config_path, const char* root_token,
                          char** warnings, char** error) {
  if (warnings) *warnings = nullptr;
  if (error) *error = nullptr;
  try {
    auto s = std::make_unique<tm_select>();
    s->store = testmap::indexer::IndexStore::Open(index_dir ? index_dir : ".testmap",
                                                  testmap::indexer::OpenMode::kRead);
    s->index = std::make_unique<testmap::indexer::IndexReader>(*s->store);
    if (config_path && *config_path) {
      std::vector<testmap::config::Diagnostic> found;
      s->config = testmap::config::LoadConfig(config_path, &found);
      s->rules.emplace(*s->config, root_token ? root_token : "${TORCH_ROOT}");
      if (!found.empty() && warnings) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& w : found) list.push_back(w.ToString());
        *warnings = Copy(list.dump());
      }
    }
    return s.release();
  } catch (const std::exception& e) {
    SetError(error, e.what());
    return nullptr;
  }
}

int tm_select_set_roles(tm_select* s, const char* roles, char** error) {
  if (error) *error = nullptr;
  try {
    auto canonical = testmap::query::CanonicalRolesOrThrow({roles ? roles : "test"});
    s->roles = std::set<std::string>(canonical.begin(), canonical.end());
    return 0;
  } catch (const testmap::core::UnknownNameError& e) {
    std::string message = e.what();
    if (!e.suggestions().empty()) {
      message += " (did you mean:";
      for (const auto& n : e.suggestions()) message += " " + n;
      message += ")";
    }
    SetError(error, message);
    return -1;
  } catch (const std::exception& e) {
    SetError(error, e.what());
    return -1;
  }
}

char* tm_select_answer(tm_select* s, const char* const* nodeids, size_t n, char** error) {
  if (error) *error = nullptr;
  try {
    nlohmann::json out = nlohmann::json::object();
    for (size_t i = 0; i < n; ++i) {
      std::string id = nodeids[i];
      auto facts = testmap::indexer::ReadTestFacts(*s->store, id);
      nlohmann::json answer = {
          {"in_index", facts.has_value()},
          {"marks", testmap::select::MarksOf(*s->index, id, facts ? &*facts : nullptr, s->roles)},
          {"mode", nullptr},
          {"reason", ""}};
      if (s->rules) {
        testmap::config::Decision d =
            s->rules->Decide(facts ? testmap::config::ConfigFacts(*facts) : FactsFromNodeId(id));
        if (d.governed) {
          answer["mode"] = testmap::config::ModeName(d.mode);
          answer["reason"] = d.decided_by + (d.rule.empty() ? "" : "; " + d.rule);
        }
      }
      out[id] = std::move(answer);
    }
    return Copy(out.dump());
  } catch (const std::exception& e) {
    SetError(error, e.what());
    return nullptr;
  }
}

void tm_select_close(tm_select* s) { delete s; }

void tm_select_free(char* s) { std::free(s); }

}  // extern "C"
