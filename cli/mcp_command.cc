// `testmap mcp`: the index as a Model Context Protocol server on stdio, for
// agents (docs/mcp.md). The server is mcp/server.h.
#include <CLI/CLI.hpp>

#include "cli/allocator.h"
#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "cli/torch_options.h"
#include "mcp/server.h"

namespace testmap::cli {

void RegisterMcpCommand(CLI::App& app) {
  auto options = std::make_shared<mcp::ServerOptions>();
  auto torch = std::make_shared<TorchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "mcp", "Serve the index to agents: a Model Context Protocol server on stdin/stdout");
  cmd->footer(
      "JSON-RPC 2.0, one message a line on stdin/stdout, logs on stderr. Speaks MCP 2026-07-28\n"
      "(stateless, server/discover) and 2024-11-05..2025-11-25 (initialize). Tools: query_op,\n"
      "tests_for_ops, show_test, list_ops, plan, admit, rank_next_ops, config_explain;\n"
      "resources: testmap://run/ID, testmap://test/ID. The index is reopened when an ingest\n"
      "changes it; files (timings for plan, supported files for admit, configs) are read only\n"
      "under --allow; torch's registry (for admit) from --torch-python or --snapshot, on first\n"
      "use. Exits 0 when stdin closes.\n\n"
      "Examples:\n"
      "  testmap mcp --index .testmap\n"
      "  testmap mcp --index /data/index --allow /data/junit --allow /data/test-times.json\n"
      "  an MCP host's config: {\"command\": \"testmap\", \"args\": [\"mcp\", \"--index\", "
      "\"/abs/.testmap\"]}");
  AddIndexOption(cmd, options->index_dir);
  cmd->add_option("--allow", options->allow,
                  "A file or directory tools may read (timing files for plan); repeatable")
      ->check(CLI::ExistingPath);
  AddTorchOptions(cmd, *torch);
  cmd->add_option("--workers", options->workers, "Requests answered at once (default: cores, 2..8)")
      ->check(CLI::Range(1, 64));
  options->version = TESTMAP_VERSION;
  cmd->callback([options, torch] {
    options->torch_python = torch->python;
    options->snapshot = torch->snapshot;
    ReturnFreedMemoryAtOnce();  // a server lives on between requests
    RunCommand("mcp", [&] { return mcp::Serve(*options, 0, 1); });
  });
}

}  // namespace testmap::cli
