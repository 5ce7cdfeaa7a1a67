// Subcommands of the `testmap` CLI. Each lives in its own <name>_command.cc,
// parses its options with CLI11 and calls into the stage libraries; the
// work itself never lives here.
#pragma once

namespace CLI {
class App;
}

namespace testmap::cli {

// Adds `testmap scan` (static enumeration of pytest ids) to `app`.
void RegisterScanCommand(CLI::App& app);

// Adds `testmap plan` (CI split plans from timings) to `app`.
void RegisterPlanCommand(CLI::App& app);

// Adds `testmap trace` (per-test operator traces of a pytest run) to `app`.
void RegisterTraceCommand(CLI::App& app);

// Adds `testmap logs parse` (TORCH_LOGS graphs into op records) to `app`.
void RegisterLogsCommand(CLI::App& app);

// Adds `testmap backend scan|dump` (what a backend registers) to `app`.
void RegisterBackendCommand(CLI::App& app);

// Adds `testmap mcp` (the index as an MCP server on stdio, docs/mcp.md).
void RegisterMcpCommand(CLI::App& app);

// Adds `testmap report` (one HTML page: coverage heatmap, plan, runs) to `app`.
void RegisterReportCommand(CLI::App& app);

// Index commands (docs/index.md): ingest, query, show, ops, stats, index;
// RegisterIndexCommands adds them all (cli/index_commands.cc).
void RegisterIndexCommands(CLI::App& app);
void RegisterIngestCommand(CLI::App& app);
void RegisterQueryCommand(CLI::App& app);
void RegisterShowCommand(CLI::App& app);
void RegisterOpsCommand(CLI::App& app);
void RegisterStatsCommand(CLI::App& app);
void RegisterIndexCommand(CLI::App& app);

// Adds `testmap admit` (which tests a backend can run) to `app`.
void RegisterAdmitCommand(CLI::App& app);

// Adds `testmap backend show NAME` (capabilities stored in the index), under
// `backend` when that command is registered, else creating it.
void RegisterBackendShowCommand(CLI::App& app);

// Adds `testmap config check|explain|generate` (test_suite_config files).
void RegisterConfigCommand(CLI::App& app);

// Adds `testmap diff OLD NEW` (the delta between two suite versions, docs/diff.md).
void RegisterDiffCommand(CLI::App& app);

}  // namespace testmap::cli
