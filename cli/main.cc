// testmap: which PyTorch tests exercise which operators and dtypes, and how
// to run the ones that matter fast. See README.md and docs/.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/run_command.h"

namespace {

// Every command, in the order `testmap --help` lists them. Building all of
// their options costs more than a short command's own work (a `query`
// answers in a few milliseconds), so a run builds only the command it
// names, --version none; help and a name that is no command build them all.
struct Command {
  const char* name;
  void (*add)(CLI::App&);
};
constexpr Command kCommands[] = {
    {"scan", testmap::cli::RegisterScanCommand},
    {"plan", testmap::cli::RegisterPlanCommand},
    {"trace", testmap::cli::RegisterTraceCommand},
    {"logs", testmap::cli::RegisterLogsCommand},
    {"ingest", testmap::cli::RegisterIngestCommand},
    {"query", testmap::cli::RegisterQueryCommand},
    {"show", testmap::cli::RegisterShowCommand},
    {"ops", testmap::cli::RegisterOpsCommand},
    {"stats", testmap::cli::RegisterStatsCommand},
    {"index", testmap::cli::RegisterIndexCommand},
    {"backend",
     [](CLI::App& app) {
       testmap::cli::RegisterBackendCommand(app);
       testmap::cli::RegisterBackendShowCommand(app);  // `backend show`, after `backend` exists
     }},
    {"admit", testmap::cli::RegisterAdmitCommand},
    {"config", testmap::cli::RegisterConfigCommand},
    {"diff", testmap::cli::RegisterDiffCommand},
    {"mcp", testmap::cli::RegisterMcpCommand},
    {"report", testmap::cli::RegisterReportCommand},
};

void AddCommands(CLI::App& app, const char* named) {
  if (named && std::strcmp(named, "--version") == 0) return;
  for (const Command& c : kCommands) {
    if (named && std::strcmp(named, c.name) == 0) return c.add(app);
  }
  for (const Command& c : kCommands) c.add(app);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "testmap maps PyTorch's tests to the operators, dtypes and devices they "
      "exercise.\n\n"
      "Typical flow:\n"
      "  testmap scan test/ --format jsonl > scan.jsonl     pytest ids, statically\n"
      "  testmap trace --out traces -- pytest test/         what each test dispatched\n"
      "  testmap ingest scan.jsonl traces/*.jsonl           into the index (.testmap/)\n"
      "  testmap query --op _scaled_mm                      which tests run an operator\n"
      "  testmap plan junit/*.xml --max-minutes 30          CI splits from real timings\n"
      "  testmap mcp                                        the same answers for agents (MCP)\n"
      "  testmap report --out report/                       a page to look at: heatmap, plan\n"
      "\n"
      "Every command prints a human table by default; --format json/jsonl is "
      "for machines.",
      "testmap"};
  app.set_version_flag("--version", std::string("testmap ") + TESTMAP_VERSION);
  app.footer(testmap::cli::kExitCodeTable);
  app.require_subcommand(1);
  AddCommands(app, argc > 1 ? argv[1] : nullptr);
  if (argc == 1) {  // `testmap` alone: what it can do, not "a subcommand is required"
    std::cout << app.help();
    return testmap::cli::kExitUsage;
  }
  int code = testmap::cli::kExitAnswer;
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    code = e.get_exit_code();  // a command's own exit code (cli/run_command.h)
  } catch (const CLI::ParseError& e) {
    // Help and --version exit 0, if they could be written; CLI11's usage
    // errors (105, 106, 109...) are the table's 2.
    code = app.exit(e) == 0 ? testmap::cli::CheckOutputWritten("", testmap::cli::kExitAnswer)
                            : testmap::cli::kExitUsage;
  }
  // The command has finished and closed what it opened; what is left to
  // destroy (the options of every command, RocksDB's static tables) would
  // cost a short query a noticeable share of its time for nothing.
  std::cout.flush();
  std::fflush(nullptr);
  std::_Exit(code);
}
