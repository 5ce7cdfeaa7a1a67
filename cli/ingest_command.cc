// `testmap ingest FILES...`: scan output and trace shards into the index.
// Reading and checking happen before the index is touched; the commit is
// one atomic step (indexer/ingest.h).
#include <CLI/CLI.hpp>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/run_command.h"
#include "cli/shared_options.h"
#include "core/progress.h"
#include "indexer/ingest.h"

namespace testmap::cli {
namespace {

struct IngestArgs {
  std::vector<std::string> files;
  std::string index;
  std::string format = "table";
};

int RunIngest(const IngestArgs& args) {
  auto start = std::chrono::steady_clock::now();
  // Never freed: millions of small strings take a noticeable fraction of the
  // ingest to free one by one, and the process ends right after.
  indexer::IngestInputs* read = nullptr;
  {
    core::Progress progress("testmap ingest: reading", "files");
    read =
        new indexer::IngestInputs(indexer::ReadIngestInputs(args.files, [&](size_t, size_t total) {
          progress.SetTotal(total);
          progress.Add(1);
        }));
  }
  auto& inputs = *read;
  for (const auto& w : inputs.warnings) std::cerr << "testmap ingest: warning: " << w << "\n";
  indexer::IngestSummary s;
  {
    // Opened first: waiting for another writer is said on a line of its own.
    auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kWrite);
    core::Progress progress("testmap ingest: writing " + args.index, "");
    s = indexer::Ingest(*store, inputs);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (args.format == "json") {
    nlohmann::json j = {{"index", args.index},
                        {"files", s.files},
                        {"runs", s.runs},
                        {"scanned_tests", s.scanned_tests},
                        {"traced_tests", s.traced_tests},
                        {"edges", s.edges},
                        {"observations", s.observations},
                        {"timings", s.timings},
                        {"keys", s.keys},
                        {"seconds", seconds}};
    std::cout << j.dump(2) << "\n";
    return kExitAnswer;
  }
  std::cout << "ingested " << s.files << " file(s) into " << args.index << ": " << s.scanned_tests
            << " scanned tests, " << s.traced_tests << " traced test runs from " << s.runs
            << " run(s), " << s.edges << " op-test edges (" << s.observations
            << " dtype/device observations)";
  if (s.timings) std::cout << ", " << s.timings << " timing records";
  std::cout << "; " << s.keys << " keys in " << std::fixed << std::setprecision(2) << seconds
            << " s\n";
  return kExitAnswer;
}

}  // namespace

void RegisterIngestCommand(CLI::App& app) {
  auto args = std::make_shared<IngestArgs>();
  CLI::App* cmd = app.add_subcommand(
      "ingest", "Add scan output, trace shards and timing files to the index (atomic, idempotent)");
  cmd->footer(
      "Inputs: `testmap scan --format jsonl` files, trace shards (trace-*.jsonl) and\n"
      "directories of them (`testmap trace --out`). Shards of many CI jobs or xdist\n"
      "workers merge; every edge keeps the run it came from. Everything is read and\n"
      "checked first: bad input leaves the index untouched.\n\n"
      "Examples:\n"
      "  testmap scan test/ --format jsonl > tests.jsonl\n"
      "  testmap trace --out traces -- pytest test/test_ops.py\n"
      "  testmap ingest tests.jsonl traces/\n"
      "  testmap ingest --index /data/index job-*/trace-*.jsonl");
  cmd->add_option("files", args->files, "Scan JSONL files, trace shards, trace directories")
      ->required();
  AddIndexOption(cmd, args->index);
  AddFormatOption(cmd, args->format, {"table", "json"});
  cmd->callback([args] {
    RunCommand("ingest", [&] {
      try {
        return RunIngest(*args);
      } catch (const std::exception&) {
        // Everything is read and checked before the one atomic commit.
        std::cerr << "testmap ingest: nothing was written to " << args->index << "\n";
        throw;
      }
    });
  });
}

}  // namespace testmap::cli
