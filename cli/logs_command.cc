// `testmap logs parse FILE...`: TORCH_LOGS text (a CI log, a
// TORCH_LOGS_OUT file) into the compile path's op records, per graph. The
// work is tracer/torch_logs_report.h; `testmap ingest --test ID FILE` puts
// such a log into the index for the test it belongs to.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "tracer/torch_logs_report.h"

namespace testmap::cli {

void RegisterLogsCommand(CLI::App& app) {
  struct Args {
    std::vector<std::string> files;
    std::string format;
  };
  auto args = std::make_shared<Args>();
  CLI::App* logs = app.add_subcommand("logs", "TORCH_LOGS text: the graphs torch.compile logged");
  logs->require_subcommand(1);
  CLI::App* cmd = logs->add_subcommand(
      "parse", "The ATen ops of every aot/post-grad graph in TORCH_LOGS text, with where they are");
  cmd->footer(
      "Reads what TORCH_LOGS=aot_graphs,post_grad_graphs printed (any torch 2.x prefix, glog or\n"
      "bracketed or an empty TORCH_LOGS_FORMAT, [rankN]: prefixes, several graphs and\n"
      "recompiles per file) and prints one record per (graph, op): op overload, dtypes,\n"
      "device, nodes, the graph's kind, compile id, rank and FILE:LINE. Lines it cannot read\n"
      "(a truncated log) go to stderr with their line, and the exit status is then 1; what\n"
      "was whole is still printed.\n\n"
      "Examples:\n"
      "  TORCH_LOGS=aot_graphs,post_grad_graphs python train.py 2> run.log\n"
      "  testmap logs parse run.log\n"
      "  testmap logs parse ci-*.log --format jsonl | jq -r .op | sort -u\n"
      "  testmap ingest --test test_x.py::TestX::test_y run.log    # into the index");
  cmd->add_option("files", args->files, "TORCH_LOGS text files")->required();
  AddFormatOption(cmd, args->format, {"table", "json", "jsonl"});
  cmd->callback([args] {
    RunCommand("logs parse", [&] {
      auto files = tracer::ParseLogFiles(args->files);
      tracer::RenderLogFiles(files, args->format, std::cout);
      auto diagnostics = tracer::LogDiagnostics(files);
      for (const auto& d : diagnostics) std::cerr << "testmap logs parse: " << d << "\n";
      return diagnostics.empty() ? kExitAnswer : kExitBadInput;
    });
  });
}

}  // namespace testmap::cli
