// `testmap stats`: what an index holds (indexer/index_stats.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "indexer/index_stats.h"

namespace testmap::cli {
namespace {

void RenderTable(const nlohmann::json& s) {
  std::cout << "index         " << s["index"].get<std::string>() << " ("
            << s["bytes"].get<uintmax_t>() / 1024 << " KiB)\n"
            << "tests         " << s["tests"] << " (" << s["generic_tests"] << " generic, "
            << s["traced_tests"] << " traced)\n"
            << "evidence      " << s["evidence"]["with_evidence"] << " of "
            << s["evidence"]["scanned"] << " scanned tests traced ("
            << static_cast<int>(1000 * s["evidence"]["share"].get<double>() + 0.5) / 10.0 << "%)\n"
            << "operators     " << s["operators"] << "\n"
            << "edges         " << s["edges"];
  for (const auto& [e, n] : s["edges_by_evidence"].items()) std::cout << "  " << e << " " << n;
  std::cout << "\n"
            << "outcomes      " << s["outcomes"] << "\n"
            << "runs          " << s["runs"].size() << "\n";
  for (const auto& r : s["runs"]) {
    std::cout << "  " << r["id"].get<std::string>() << "  torch " << r["torch"].get<std::string>()
              << "  " << r["start_time"].get<std::string>() << "  "
              << r["worker"].get<std::string>() << "  " << r["source"].get<std::string>() << "\n";
  }
}

}  // namespace

void RegisterStatsCommand(CLI::App& app) {
  struct Args {
    std::string index, format;
  };
  auto args = std::make_shared<Args>();
  CLI::App* cmd =
      app.add_subcommand("stats", "What the index holds: tests, operators, edges, runs");
  AddFormatOption(cmd, args->format, {"table", "json"});
  AddIndexOption(cmd, args->index);
  cmd->callback([args] {
    RunCommand("stats", [&] {
      nlohmann::json stats = indexer::ReadIndexStats(args->index);
      if (args->format == "json")
        std::cout << stats.dump(2) << "\n";
      else
        RenderTable(stats);
      return kExitAnswer;
    });
  });
}

}  // namespace testmap::cli
