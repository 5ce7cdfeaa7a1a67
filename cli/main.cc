// testmap: which PyTorch tests exercise which operators and dtypes, and how
// to run the ones that matter fast. See README.md and docs/.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/exit_codes.h"

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
  testmap::cli::RegisterScanCommand(app);
  testmap::cli::RegisterPlanCommand(app);
  testmap::cli::RegisterTraceCommand(app);
  testmap::cli::RegisterLogsCommand(app);
  testmap::cli::RegisterIndexCommands(app);
  testmap::cli::RegisterBackendCommand(app);
  testmap::cli::RegisterBackendShowCommand(app);  // `backend show`, after `backend` exists
  testmap::cli::RegisterAdmitCommand(app);
  testmap::cli::RegisterConfigCommand(app);
  testmap::cli::RegisterDiffCommand(app);
  testmap::cli::RegisterMcpCommand(app);
  testmap::cli::RegisterReportCommand(app);
  if (argc == 1) {  // `testmap` alone: what it can do, not "a subcommand is required"
    std::cout << app.help();
    return testmap::cli::kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a command's own exit code (cli/run_command.h)
  } catch (const CLI::ParseError& e) {
    // Help and --version exit 0; CLI11's usage errors (105, 106, 109...)
    // are the table's 2.
    return app.exit(e) == 0 ? testmap::cli::kExitAnswer : testmap::cli::kExitUsage;
  }
  return testmap::cli::kExitAnswer;
}
