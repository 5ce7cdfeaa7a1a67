#include "indexer/index_test_facts.h"

#include <simdjson.h>

#include "core/errors.h"
#include "indexer/index_layout.h"
#include "indexer/latest_outcome.h"

namespace testmap::indexer {
namespace {

std::string Str(simdjson::dom::object obj, const char* key) {
  std::string_view v;
  return obj[key].get_string().get(v) == simdjson::SUCCESS ? std::string(v) : std::string();
}

void ReadParams(simdjson::dom::object params, TestFacts& t) {
  t.device = Str(params, "device");
  t.opinfo = Str(params, "op");
  t.op_variant = Str(params, "op_variant");
  t.module = Str(params, "module");
  simdjson::dom::array dtypes;
  if (params["dtypes"].get_array().get(dtypes) == simdjson::SUCCESS) {
    for (auto d : dtypes) {
      std::string_view s;
      if (d.get_string().get(s) == simdjson::SUCCESS) t.dtypes.emplace_back(s);
    }
  }
  std::string rest;
  for (auto field : params) {
    if (field.key == "device" || field.key == "dtypes" || field.key == "op" ||
        field.key == "op_variant" || field.key == "module")
      continue;
    rest += std::string(field.key) + "=" + simdjson::minify(field.value) + ";";
  }
  t.other_params = std::move(rest);
}

// Which of several outcomes of timing files speaks for a test: a failure
// anywhere outweighs passes elsewhere, and a pass outweighs a skip.
int OutcomeRank(const std::string& outcome) {
  if (outcome == "failed") return 3;
  if (outcome == "error") return 2;
  if (outcome == "passed") return 1;
  return 0;
}

bool OriginIsScan(simdjson::dom::object rec) { return Str(rec, "origin") == "scan"; }

// The record's own fields; `rec` must stay parsed while this runs.
void ReadRecord(const IndexStore& store, simdjson::dom::parser& parser, std::string_view value,
                TestFacts& t) {
  simdjson::dom::object rec;
  if (parser.parse(value.data(), value.size()).get_object().get(rec) != simdjson::SUCCESS)
    throw core::InputError(store.dir() + ": damaged test record of " + t.nodeid);
  t.generic_id = Str(rec, "generic_id");
  t.file = Str(rec, "file");
  t.generic_class = Str(rec, "generic_class");
  t.generic_method = Str(rec, "generic_method");
  t.scanned = OriginIsScan(rec);
  simdjson::dom::object params;
  if (rec["params"].get_object().get(params) == simdjson::SUCCESS) ReadParams(params, t);
}

}  // namespace

std::optional<TestFacts> ReadTestFacts(const IndexStore& store, const std::string& nodeid) {
  auto value = store.Get(Cf::kTests, nodeid);
  if (!value) return std::nullopt;
  simdjson::dom::parser parser;
  TestFacts t;
  t.nodeid = nodeid;
  ReadRecord(store, parser, *value, t);
  return t;
}

bool IsScanRecord(std::string_view record) {
  thread_local simdjson::dom::parser parser;
  simdjson::dom::object rec;
  return parser.parse(record.data(), record.size()).get_object().get(rec) == simdjson::SUCCESS &&
         OriginIsScan(rec);
}

std::string TestFacts::ParamsWithoutDevice() const {
  std::string key;
  for (const auto& d : dtypes) key += d + ",";
  return key + "|" + opinfo + "|" + op_variant + "|" + module + "|" + other_params;
}

void ForEachTestFacts(const IndexStore& store, const std::function<void(TestFacts&&)>& fn) {
  simdjson::dom::parser parser;
  auto outcomes = store.NewCursor(Cf::kOutcomes);
  outcomes->Seek("");
  auto timings = store.NewCursor(Cf::kTimings);
  timings->Seek("");
  std::string prefix;
  store.Scan(Cf::kTests, "", [&](std::string_view key, std::string_view value) {
    TestFacts t;
    t.nodeid = key;
    ReadRecord(store, parser, value, t);
    // Outcomes (NODEID \0 RUN) and timing records (ID \0 JOB \0 ...) are in
    // the same order as the tests: both cursors only move forward.
    prefix.assign(t.nodeid);
    prefix.push_back('\0');
    AdvanceTo(*outcomes, prefix);
    LatestOutcome latest = ReadLatestOutcome(*outcomes, prefix, parser);
    t.outcome = std::move(latest.outcome);
    t.duration = latest.duration;
    t.runs = latest.runs;
    AdvanceTo(*timings, prefix);
    int worst = -1;
    for (; timings->Valid() && timings->key().starts_with(prefix); timings->Next()) {
      simdjson::dom::object o;
      std::string_view v = timings->value();
      if (parser.parse(v.data(), v.size()).get_object().get(o) != simdjson::SUCCESS) continue;
      std::string outcome = Str(o, "outcome");
      if (OutcomeRank(outcome) > worst) {
        worst = OutcomeRank(outcome);
        t.file_outcome = outcome;
      }
    }
    fn(std::move(t));
    return true;
  });
}

}  // namespace testmap::indexer
