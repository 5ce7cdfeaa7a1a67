// `testmap ops`: every operator in the index with its coverage
// (mapper/query/op_coverage.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "mapper/query/op_coverage.h"

namespace testmap::cli {

void RegisterOpsCommand(CLI::App& app) {
  struct Args {
    std::string index, sort = "tests", format;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "ops", "Every operator in the index with its test count, dtypes, devices and evidence");
  cmd->footer(
      "Examples:\n"
      "  testmap ops\n"
      "  testmap ops --sort name --format json");
  cmd->add_option("--sort", args->sort, "Order")
      ->capture_default_str()
      ->check(CLI::IsMember({"tests", "name"}));
  AddFormatOption(cmd, args->format, {"table", "json", "jsonl", "yaml"});
  AddIndexOption(cmd, args->index);
  cmd->callback([args] {
    RunCommand("ops", [&] {
      auto store = indexer::IndexStore::Open(args->index, indexer::OpenMode::kRead);
      indexer::IndexReader index(*store);
      query::RenderOpCoverage(query::ReadOpCoverage(index, args->sort), args->format, std::cout);
      return kExitAnswer;
    });
  });
}

}  // namespace testmap::cli
