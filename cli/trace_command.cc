// `testmap trace [options] -- pytest ARGS...`: the work is
// tracer/trace_runner.h; this file parses options and prints the summary.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "core/progress.h"
#include "tracer/trace_runner.h"

namespace testmap::cli {
namespace {

// This process's argv, for the run metadata: the exact command to rerun.
std::vector<std::string> OwnCommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string arg; std::getline(in, arg, '\0');) args.push_back(arg);
  return args;
}

void Render(const tracer::TraceRunResult& r, const std::string& format) {
  for (const auto& w : r.warnings) std::cerr << "testmap trace: " << w << "\n";
  if (!r.removed_shards.empty())
    std::cerr << "testmap trace: replaced " << r.removed_shards.size()
              << " shard(s) of an earlier run in " << r.out << " (--keep appends instead)\n";
  if (format == "json") {
    nlohmann::json j = {{"out", r.out},
                        {"shards", r.shards},
                        {"tests", r.tests},
                        {"outcomes", r.outcomes},
                        {"crashed", r.crashed},
                        {"ops", r.ops},
                        {"eager_records", r.eager_records},
                        {"compile_records", r.compile_records},
                        {"seconds", r.seconds},
                        {"recorder", r.recorder}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::string counts;
  for (const auto& [k, v] : r.outcomes)
    counts += (counts.empty() ? "" : ", ") + std::to_string(v) + " " + k;
  std::cout << "testmap trace: " << r.shards.size() << " shard(s) in " << r.out << "\n";
  std::cout << "testmap trace: " << r.tests << " tests (" << (counts.empty() ? "none" : counts)
            << "); " << r.ops << " operators, " << r.eager_records << " eager and "
            << r.compile_records << " compile (op, dtypes, device) records; "
            << static_cast<int>(r.seconds * 10) / 10.0 << " s; recorder " << r.recorder << "\n";
  for (const auto& c : r.crashed) std::cout << "testmap trace: crashed: " << c << "\n";
}

}  // namespace

void RegisterTraceCommand(CLI::App& app) {
  auto opt = std::make_shared<tracer::TraceRunOptions>();
  auto format = std::make_shared<std::string>("table");
  auto* cmd = app.add_subcommand(
      "trace", "Run pytest and record, per test, the operators, dtypes and devices it dispatched");
  cmd->footer(
      "Examples:\n"
      "  testmap trace -- pytest test/test_ops.py -k add\n"
      "  testmap trace --compile-logs --out traces/ -- pytest -n 4 test/inductor\n"
      "  testmap trace -- python -m pytest test/test_view_ops.py\n\n"
      "Each pytest process (each xdist worker) writes DIR/trace-<worker>.jsonl, one JSON record\n"
      "per test (docs/trace-format.md). A test that crashes its process is recorded as crashed.\n"
      "Exit status: pytest's own (128 + signal when pytest was killed).");
  cmd->add_option("--out", opt->out, "directory for the trace shards")->capture_default_str();
  cmd->add_flag("--reference", opt->reference,
                "record with the pure-Python TorchDispatchMode reference (slow; for checking the "
                "C++ tracer)");
  cmd->add_flag("--compile-logs", opt->compile_logs,
                "capture TORCH_LOGS aot_graphs/post_grad_graphs per test and record their ops "
                "(evidence compile)");
  cmd->add_flag("--resume-after-crash", opt->resume,
                "when a test ends pytest (a signal, os._exit), record it as crashed and run the "
                "remaining tests (not with xdist, which replaces dead workers itself)");
  cmd->add_flag("--keep", opt->keep,
                "append to existing shards in --out instead of replacing them");
  cmd->add_option("--torch-python", opt->python,
                  "Python with torch and pytest (default: $TESTMAP_PYTHON, else the configured "
                  "one)");
  cmd->add_option("--format", *format, "summary format")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  cmd->add_option("pytest", opt->pytest_command, "the pytest command line, after --")->required();
  cmd->callback([opt, format] {
    RunCommand("trace", [&] {
      opt->command_line = OwnCommandLine();
      // On the terminal's last row, below pytest's own output.
      core::Progress progress("testmap trace: finished", "tests", 0,
                              {.pinned = true, .interval = std::chrono::milliseconds(200)});
      if (progress.enabled()) opt->progress = [&](size_t tests) { progress.Set(tests); };
      tracer::TraceRunResult result = tracer::RunTrace(*opt);
      progress.Finish();
      Render(result, *format);
      return result.exit_code;
    });
  });
}

}  // namespace testmap::cli
