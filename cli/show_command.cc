// `testmap show TEST`: everything the index knows about a test, as one
// document (mapper/query/test_document.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "mapper/query/test_document.h"
#include "mapper/yaml/yaml_emit.h"

namespace testmap::cli {

void RegisterShowCommand(CLI::App& app) {
  struct Args {
    std::string test, index, format;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("show", "Everything known about a test, as one document");
  cmd->footer(
      "Source location, params, decorators, ops with dtypes/devices/evidence, outcomes and\n"
      "timings, and the runs (torch version, git SHAs, python, OS, CPU, time) they came from.\n\n"
      "Examples:\n"
      "  testmap show test_matmul.py::TestMatmulCPU::test_scaled_mm_cpu_float8_e4m3fn\n"
      "  testmap show test_matmul.py::TestMatmul::test_scaled_mm      # a generic test");
  cmd->add_option("test", args->test, "Node id or generic id")->required();
  AddIndexOption(cmd, args->index);
  AddFormatOption(cmd, args->format, {"json", "yaml"});
  cmd->callback([args] {
    RunCommand("show", [&] {
      auto store = indexer::IndexStore::Open(args->index, indexer::OpenMode::kRead);
      indexer::IndexReader index(*store);
      nlohmann::json doc = query::TestDocument(index, args->test);
      if (args->format == "yaml")
        yaml::EmitYaml(doc, std::cout);
      else
        std::cout << doc.dump(2) << "\n";
      return kExitAnswer;
    });
  });
}

}  // namespace testmap::cli
