// `testmap ops`: every operator in the index with its test count, the
// dtypes seen and the evidence: the coverage overview (which ops does the
// suite exercise at all, and how well).
#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/commands.h"
#include "cli/index_location.h"
#include "indexer/index/index_reader.h"
#include "mapper/yaml_emit.h"

namespace testmap::cli {
namespace {

using nlohmann::json;

struct OpsArgs {
  std::string index;
  std::string sort = "tests";
  std::string format = "table";
};

struct OpSummary {
  std::set<std::string> tests, dtypes, evidence, devices;
};

void RunOps(const OpsArgs& args) {
  auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kRead);
  indexer::IndexReader index(*store);
  std::map<std::string, OpSummary> ops;
  index.ForEachEdge([&](const indexer::Edge& e) {
    auto& s = ops[e.Op()];
    s.tests.insert(e.nodeid);
    for (const auto& t : e.tuples) {
      s.dtypes.insert(t.dtypes.begin(), t.dtypes.end());
      s.evidence.insert(t.evidence);
      if (!t.device.empty()) s.devices.insert(t.device);
    }
  });
  std::vector<std::pair<std::string, const OpSummary*>> rows;
  for (const auto& [op, s] : ops) rows.emplace_back(op, &s);
  if (args.sort == "tests") {
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.second->tests.size() > b.second->tests.size();
    });
  }
  auto join = [](const std::set<std::string>& s) {
    std::string out;
    for (const auto& x : s) out += (out.empty() ? "" : ",") + x;
    return out.empty() ? std::string("-") : out;
  };
  if (args.format == "table") {
    size_t w = 2;
    for (const auto& [op, s] : rows) w = std::max(w, op.size());
    std::cout << "OP" << std::string(w - 2 + 2, ' ') << "TESTS  PATH            DTYPES\n";
    for (const auto& [op, s] : rows) {
      std::string n = std::to_string(s->tests.size());
      std::string path = join(s->evidence);
      std::cout << op << std::string(w - op.size() + 2, ' ')
                << std::string(5 - std::min<size_t>(5, n.size()), ' ') << n << "  " << path
                << std::string(16 - std::min<size_t>(15, path.size()), ' ') << join(s->dtypes)
                << "\n";
    }
    std::cout << rows.size() << " operators\n";
    return;
  }
  json list = json::array();
  for (const auto& [op, s] : rows) {
    list.push_back({{"op", op},
                    {"tests", s->tests.size()},
                    {"dtypes", s->dtypes},
                    {"evidence", s->evidence},
                    {"devices", s->devices}});
  }
  if (args.format == "jsonl") {
    for (const auto& j : list) std::cout << j.dump() << "\n";
  } else if (args.format == "yaml") {
    mapper::EmitYaml({{"ops", list}}, std::cout);
  } else {
    std::cout << json{{"count", list.size()}, {"ops", list}}.dump(2) << "\n";
  }
}

}  // namespace

void RegisterOpsCommand(CLI::App& app) {
  auto args = std::make_shared<OpsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "ops",
      "Every operator in the index with its test count, dtypes, devices and evidence.\n\n"
      "Examples:\n"
      "  testmap ops\n"
      "  testmap ops --sort name --format json");
  cmd->add_option("--sort", args->sort, "Order")
      ->capture_default_str()
      ->check(CLI::IsMember({"tests", "name"}));
  cmd->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "json", "jsonl", "yaml"}));
  AddIndexOption(cmd, args->index);
  cmd->callback([args] {
    try {
      RunOps(*args);
    } catch (const std::exception& e) {
      std::cerr << "testmap ops: error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace testmap::cli
