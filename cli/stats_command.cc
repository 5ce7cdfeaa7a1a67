// `testmap stats`: what an index holds: tests, generic tests, operators,
// edges by evidence, outcomes, and the runs (with torch version and time)
// the evidence came from.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/commands.h"
#include "cli/index_location.h"
#include "indexer/index/index_reader.h"

namespace testmap::cli {
namespace {

using nlohmann::json;

struct StatsArgs {
  std::string index;
  std::string format = "table";
};

void RunStats(const StatsArgs& args) {
  auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kRead);
  indexer::IndexReader index(*store);
  std::set<std::string> ops, traced_tests;
  std::map<std::string, size_t> by_evidence;
  size_t edges = 0;
  index.ForEachEdge([&](const indexer::Edge& e) {
    ++edges;
    ops.insert(e.Op());
    std::set<std::string> ev;
    for (const auto& t : e.tuples) ev.insert(t.evidence);
    for (const auto& x : ev) ++by_evidence[x];
    if (e.run != "static") traced_tests.insert(e.nodeid);
  });
  std::set<std::string> generic;
  store->Scan(indexer::Cf::kGeneric, "", [&](std::string_view k, std::string_view) {
    generic.insert(std::string(k.substr(0, k.find('\0'))));
    return true;
  });
  json runs = json::array();
  index.ForEachRun([&](const std::string& id, const std::string& text) {
    json r = json::parse(text, nullptr, false);
    json meta = r.is_object() ? r.value("metadata", json::object()) : json::object();
    runs.push_back({{"id", id},
                    {"source", r.value("source", "")},
                    {"worker", r.value("worker", "")},
                    {"start_time", meta.value("start_time", "")},
                    {"torch", meta.contains("torch") ? meta["torch"].value("version", "") : ""},
                    {"recorder", meta.value("recorder", "")}});
  });
  uintmax_t bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(args.index)) {
    if (f.is_regular_file()) bytes += f.file_size();
  }
  json doc = {{"index", args.index},
              {"tests", index.CountKeys(indexer::Cf::kTests)},
              {"generic_tests", generic.size()},
              {"traced_tests", traced_tests.size()},
              {"operators", ops.size()},
              {"edges", edges},
              {"edges_by_evidence", by_evidence},
              {"outcomes", index.CountKeys(indexer::Cf::kOutcomes)},
              {"runs", runs},
              {"bytes", bytes}};
  if (args.format == "json") {
    std::cout << doc.dump(2) << "\n";
    return;
  }
  std::cout << "index         " << args.index << " (" << bytes / 1024 << " KiB)\n"
            << "tests         " << doc["tests"] << " (" << generic.size() << " generic, "
            << traced_tests.size() << " traced)\n"
            << "operators     " << ops.size() << "\n"
            << "edges         " << edges;
  for (const auto& [e, n] : by_evidence) std::cout << "  " << e << " " << n;
  std::cout << "\n"
            << "outcomes      " << doc["outcomes"] << "\n"
            << "runs          " << runs.size() << "\n";
  for (const auto& r : runs) {
    std::cout << "  " << r["id"].get<std::string>() << "  torch " << r["torch"].get<std::string>()
              << "  " << r["start_time"].get<std::string>() << "  "
              << r["worker"].get<std::string>() << "  " << r["source"].get<std::string>() << "\n";
  }
}

}  // namespace

void RegisterStatsCommand(CLI::App& app) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd =
      app.add_subcommand("stats", "What the index holds: tests, operators, edges, runs.");
  cmd->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "json"}));
  AddIndexOption(cmd, args->index);
  cmd->callback([args] {
    try {
      RunStats(*args);
    } catch (const std::exception& e) {
      std::cerr << "testmap stats: error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace testmap::cli
