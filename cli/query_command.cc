// `testmap query --op NAME...`: which tests run these operators. The work
// is mapper/query/query.h.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "cli/torch_options.h"
#include "mapper/query/query.h"

namespace testmap::cli {

void RegisterQueryCommand(CLI::App& app) {
  struct Args {
    query::QueryOptions options;
    TorchOptions torch;  // torch's registry: which names no test runs, which are typos
    std::string index, format;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "query", "Which tests run an operator: dtypes, devices, path, time, source");
  cmd->footer(
      "Operators in any spelling: _scaled_mm, aten::_scaled_mm, add.Tensor, aten.add.Tensor,\n"
      "torch.ops.aten.add.Tensor; a packet (add) matches all its overloads. Several --op:\n"
      "tests running all of them (--any: any of them). Filters apply per observation:\n"
      "--dtype bfloat16 --path compile = ran it with bfloat16 in a compiled graph.\n"
      "Roles: by default only ops of the test's own code count (role test); ops run inside\n"
      "assertEqual/assert_close (assert), make_tensor and OpInfo/ModuleInfo input functions\n"
      "(inputs), and pytest's setup/teardown count with --role (e.g. --role test,assert, or\n"
      "--role all: what a device must run for the test to pass).\n"
      "An operator torch registers that no test runs is an empty answer (exit 0); a name\n"
      "neither the index nor torch's registry has exits 3 with the closest names.\n\n"
      "Examples:\n"
      "  testmap query --op _scaled_mm\n"
      "  pytest $(testmap query --op add --dtype bfloat16 --format nodeids)\n"
      "  testmap query --op mm --op t --group generic --format json\n"
      "  testmap query --op abs --role all");
  cmd->add_option("--op", args->options.ops, "Operator (repeatable)")->required();
  cmd->add_flag("--any", args->options.any, "Tests running any of the --op (default: all)");
  cmd->add_option("--dtype", args->options.dtypes,
                  "Only with this dtype (repeatable: any of them)");
  cmd->add_option("--device", args->options.device,
                  "Only on this device (cpu, cuda, a backend name)");
  cmd->add_option("--path", args->options.path, "Only this evidence")
      ->check(CLI::IsMember({"eager", "compile", "static"}));
  cmd->add_option("--role", args->options.roles,
                  "Only observations in these roles: test, assert, inputs, setup, teardown "
                  "(comma-separated or repeated), or all")
      ->capture_default_str();
  cmd->add_option("--torch", args->options.torch,
                  "Answer from runs under this torch version (default: per test, the newest "
                  "it was traced on)");
  cmd->add_option("--group", args->options.group, "One row per test or per generic test")
      ->capture_default_str()
      ->check(CLI::IsMember({"test", "generic"}));
  AddFormatOption(cmd, args->format, {"table", "json", "jsonl", "nodeids", "yaml"});
  AddIndexOption(cmd, args->index);
  AddTorchOptions(cmd, args->torch);
  cmd->callback([args] {
    RunCommand("query", [&] {
      auto store = indexer::IndexStore::Open(args->index, indexer::OpenMode::kRead);
      indexer::IndexReader index(*store);
      args->options.details = args->format != "nodeids";
      args->options.torch_operators = [&] { return TorchOperatorNames(args->torch); };
      auto result = query::RunQuery(index, args->options);
      query::RenderQuery(result, args->format, std::cout);
      return args->format == "nodeids" && result.tests.empty() ? kExitNoTests : kExitAnswer;
    });
  });
}

}  // namespace testmap::cli
