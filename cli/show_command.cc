// `testmap show TEST`: everything the index knows about one test (node id)
// or one generic test (all its instantiations), as one JSON document an
// agent can read without further questions.
#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/index_location.h"
#include "indexer/index/index_reader.h"
#include "mapper/yaml_emit.h"

namespace testmap::cli {
namespace {

using nlohmann::json;

struct ShowArgs {
  std::string test;
  std::string index;
  std::string format = "json";
};

json TestDocument(const indexer::IndexReader& index, const std::string& nodeid,
                  std::map<std::string, json>& runs) {
  json doc = {{"nodeid", nodeid}};
  auto rec = index.TestRecord(nodeid);
  json test = rec ? json::parse(*rec, nullptr, false) : json(nullptr);
  if (test.is_object()) {
    for (const char* f : {"generic_id", "file", "class", "method", "kind", "line_start", "line_end",
                          "params", "decorators", "skips", "source_hash", "origin"}) {
      if (test.contains(f)) doc[f] = test[f];
    }
  }
  json ops = json::array();
  for (const auto& e : index.EdgesOfTest(nodeid)) {
    json obs = json::array();
    for (const auto& t : e.tuples) {
      obs.push_back({{"evidence", t.evidence},
                     {"device", t.device.empty() ? json(nullptr) : json(t.device)},
                     {"dtypes", t.dtypes},
                     {"calls", t.count}});
    }
    ops.push_back({{"op", e.Op()}, {"run", e.run}, {"observations", obs}});
    if (e.run != "static") runs.emplace(e.run, nullptr);
  }
  doc["ops"] = ops;
  json outcomes = json::array();
  for (const auto& o : index.Outcomes(nodeid)) {
    json j = json::parse(o.json, nullptr, false);
    j["run"] = o.run;
    outcomes.push_back(j);
    runs.emplace(o.run, nullptr);
  }
  // Latest first: the question is usually "how did it do last time".
  std::sort(outcomes.begin(), outcomes.end(), [](const json& a, const json& b) {
    return a.value("start", 0.0) > b.value("start", 0.0);
  });
  doc["outcomes"] = outcomes;
  return doc;
}

void RunShow(const ShowArgs& args) {
  auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kRead);
  indexer::IndexReader index(*store);
  std::map<std::string, json> runs;
  json doc;
  if (index.TestRecord(args.test)) {
    doc = TestDocument(index, args.test, runs);
  } else if (auto members = index.TestsOfGeneric(args.test); !members.empty()) {
    doc = {{"generic_id", args.test}};
    json tests = json::array();
    for (const auto& m : members) tests.push_back(TestDocument(index, m, runs));
    doc["tests"] = tests;
  } else {
    throw std::runtime_error(
        "no test or generic test `" + args.test + "` in " + args.index +
        " (node ids look like file.py::Class::test_x_cpu_float32; generic ids like "
        "file.py::Class::test_x)");
  }
  json run_docs = json::object();
  for (auto& [id, _] : runs) {
    auto r = index.Run(id);
    run_docs[id] = r ? json::parse(*r, nullptr, false) : json(nullptr);
  }
  doc["runs"] = run_docs;
  if (args.format == "yaml") {
    mapper::EmitYaml(doc, std::cout);
  } else {
    std::cout << doc.dump(2) << "\n";
  }
}

}  // namespace

void RegisterShowCommand(CLI::App& app) {
  auto args = std::make_shared<ShowArgs>();
  CLI::App* cmd = app.add_subcommand(
      "show",
      "Everything known about a test, as one JSON document: source location, params,\n"
      "decorators, ops with dtypes/devices/evidence, outcomes and timings, and the runs\n"
      "(torch version, git SHAs, python, OS, CPU, time) they came from.\n\n"
      "Examples:\n"
      "  testmap show test_matmul.py::TestMatmulCPU::test_scaled_mm_cpu_float8_e4m3fn\n"
      "  testmap show test_matmul.py::TestMatmul::test_scaled_mm      # a generic test");
  cmd->add_option("test", args->test, "Node id or generic id")->required();
  AddIndexOption(cmd, args->index);
  cmd->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"json", "yaml"}));
  cmd->callback([args] {
    try {
      RunShow(*args);
    } catch (const std::exception& e) {
      std::cerr << "testmap show: error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace testmap::cli
