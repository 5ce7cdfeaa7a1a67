// `testmap query --op NAME...`: which tests run these operators. The work
// is mapper/query.h; this file parses options and reports errors.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/index_location.h"
#include "indexer/index/index_reader.h"
#include "mapper/query.h"

namespace testmap::cli {
namespace {

struct QueryArgs {
  mapper::QueryOptions options;
  std::string index;
  std::string format = "table";
};

}  // namespace

void RegisterQueryCommand(CLI::App& app) {
  auto args = std::make_shared<QueryArgs>();
  CLI::App* cmd = app.add_subcommand(
      "query",
      "Which tests run an operator: dtypes, devices, path (eager/compile/static), time, source.\n\n"
      "Operators in any spelling: _scaled_mm, aten::_scaled_mm, add.Tensor, aten.add.Tensor,\n"
      "torch.ops.aten.add.Tensor; a packet (add) matches all its overloads. Several --op:\n"
      "tests running all of them (--any: any of them). Filters apply per observation:\n"
      "--dtype bfloat16 --path compile = ran it with bfloat16 in a compiled graph.\n\n"
      "Examples:\n"
      "  testmap query --op _scaled_mm\n"
      "  pytest $(testmap query --op add --dtype bfloat16 --format nodeids)\n"
      "  testmap query --op mm --op t --group generic --format json");
  cmd->add_option("--op", args->options.ops, "Operator (repeatable)")->required();
  cmd->add_flag("--any", args->options.any, "Tests running any of the --op (default: all)");
  cmd->add_option("--dtype", args->options.dtypes,
                  "Only with this dtype (repeatable: any of them)");
  cmd->add_option("--device", args->options.device,
                  "Only on this device (cpu, cuda, a backend name)");
  cmd->add_option("--path", args->options.path, "Only this evidence")
      ->check(CLI::IsMember({"eager", "compile", "static"}));
  cmd->add_option("--group", args->options.group, "One row per test or per generic test")
      ->capture_default_str()
      ->check(CLI::IsMember({"test", "generic"}));
  cmd->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"table", "json", "jsonl", "nodeids", "yaml"}));
  AddIndexOption(cmd, args->index);
  cmd->callback([args] {
    try {
      auto store = indexer::IndexStore::Open(args->index, indexer::OpenMode::kRead);
      indexer::IndexReader index(*store);
      args->options.details = args->format != "nodeids";
      auto result = mapper::RunQuery(index, args->options);
      mapper::RenderQuery(result, args->format, std::cout);
    } catch (const mapper::UnknownOpError& e) {
      std::cerr << "testmap query: error: " << e.what() << "\n";
      if (!e.suggestions.empty()) {
        std::cerr << "did you mean:";
        for (const auto& s : e.suggestions) std::cerr << " " << s;
        std::cerr << "\n";
      }
      throw CLI::RuntimeError(3);
    } catch (const std::exception& e) {
      std::cerr << "testmap query: error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
  });
}

}  // namespace testmap::cli
