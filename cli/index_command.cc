// `testmap index verify|dump`: maintenance of the index itself.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "indexer/index_dump.h"
#include "indexer/index_verify.h"

namespace testmap::cli {
namespace {

struct IndexArgs {
  std::string index;
  std::string format = "table";
};

int RunVerify(const IndexArgs& args) {
  auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kRead);
  auto r = indexer::VerifyIndex(*store);
  if (args.format == "json") {
    nlohmann::json j = {{"ok", r.ok()},
                        {"problems", r.problems},
                        {"problem_count", r.problem_count},
                        {"tests", r.tests},
                        {"edges", r.edges},
                        {"outcomes", r.outcomes},
                        {"runs", r.runs},
                        {"generic_links", r.generic_links}};
    std::cout << j.dump(2) << "\n";
  } else {
    for (const auto& p : r.problems) std::cout << "problem: " << p << "\n";
    if (r.problem_count > r.problems.size()) {
      std::cout << "... and " << r.problem_count - r.problems.size() << " more\n";
    }
    std::cout << (r.ok() ? "ok: " : "FAILED: ") << r.tests << " tests, " << r.generic_links
              << " generic links, " << r.edges << " edges (both directions), " << r.outcomes
              << " outcomes, " << r.runs << " runs";
    if (!r.ok()) std::cout << "; " << r.problem_count << " problem(s)";
    std::cout << "\n";
  }
  return r.ok() ? kExitAnswer : kExitBadInput;
}

}  // namespace

void RegisterIndexCommand(CLI::App& app) {
  auto args = std::make_shared<IndexArgs>();
  CLI::App* cmd =
      app.add_subcommand("index", "Index maintenance: verify invariants, dump contents.");
  cmd->require_subcommand(1);
  CLI::App* verify = cmd->add_subcommand(
      "verify",
      "Check the index: both directions of every edge agree, every edge and outcome names a\n"
      "known test and run, every key and value decodes. Exit 1 when a check fails.");
  AddIndexOption(verify, args->index);
  AddFormatOption(verify, args->format, {"table", "json"});
  verify->callback([args] { RunCommand("index verify", [&] { return RunVerify(*args); }); });
  CLI::App* dump = cmd->add_subcommand(
      "dump", "Every key and value, one a line (CF, key, value), in key order.");
  AddIndexOption(dump, args->index);
  dump->callback([args] {
    RunCommand("index dump", [&] {
      auto store = indexer::IndexStore::Open(args->index, indexer::OpenMode::kRead);
      indexer::DumpIndex(*store, std::cout);
      return kExitAnswer;
    });
  });
}

}  // namespace testmap::cli
