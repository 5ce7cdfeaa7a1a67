// `testmap index verify|dump|prune`: maintenance of the index itself.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "indexer/index_dump.h"
#include "indexer/index_prune.h"
#include "indexer/index_verify.h"

namespace testmap::cli {
namespace {

struct IndexArgs {
  std::string index;
  std::string format = "table";
  size_t keep_runs = 0;
  bool dry_run = false;
};

int RunPrune(const IndexArgs& args) {
  auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kWrite);
  auto r = indexer::PruneRuns(*store, args.keep_runs, args.dry_run);
  if (args.format == "json") {
    nlohmann::json j = {{"index", args.index},
                        {"dry_run", args.dry_run},
                        {"runs_kept", r.runs_kept},
                        {"runs_removed", r.runs_removed},
                        {"outcomes_removed", r.outcomes_removed},
                        {"edges_removed", r.edges_removed},
                        {"tests_removed", r.tests_removed},
                        {"keys_removed", r.keys_removed}};
    std::cout << j.dump(2) << "\n";
    return kExitAnswer;
  }
  std::cout << (args.dry_run ? "would remove " : "removed ") << r.runs_removed.size()
            << " run(s) of " << r.runs_kept + r.runs_removed.size() << " from " << args.index
            << ": " << r.outcomes_removed << " outcomes, " << r.edges_removed
            << " edges (both directions), " << r.tests_removed << " traced-only tests; "
            << r.runs_kept << " run(s) kept\n";
  return kExitAnswer;
}

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
  CLI::App* cmd = app.add_subcommand(
      "index", "Index maintenance: verify invariants, dump contents, prune old runs.");
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
  CLI::App* prune = cmd->add_subcommand(
      "prune",
      "Keep the N most recent trace runs (by start time) and remove the others with their\n"
      "outcomes, edges and the tests only they traced; scans, timing files and backends stay.\n"
      "One atomic write.");
  prune->add_option("--keep-runs", args->keep_runs, "Runs to keep (the most recent)")
      ->required()
      ->check(CLI::NonNegativeNumber);
  prune->add_flag("--dry-run", args->dry_run, "Say what would be removed, remove nothing");
  AddIndexOption(prune, args->index);
  AddFormatOption(prune, args->format, {"table", "json"});
  prune->callback([args] { RunCommand("index prune", [&] { return RunPrune(*args); }); });
  dump->callback([args] {
    RunCommand("index dump", [&] {
      auto store = indexer::IndexStore::Open(args->index, indexer::OpenMode::kRead);
      indexer::DumpIndex(*store, std::cout);
      return kExitAnswer;
    });
  });
}

}  // namespace testmap::cli
