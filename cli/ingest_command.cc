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
#include "core/errors.h"
#include "core/progress.h"
#include "indexer/ingest.h"

namespace testmap::cli {
namespace {

struct IngestArgs {
  std::vector<std::string> files;
  std::string backend;
  std::string index;
  std::string test;  // the files are TORCH_LOGS logs of this test
  std::string format = "table";
};

int RunIngest(const IngestArgs& args) {
  auto start = std::chrono::steady_clock::now();
  // Never freed: millions of small strings take a noticeable fraction of the
  // ingest to free one by one, and the process ends right after.
  indexer::IngestInputs* read = nullptr;
  // A new index is built while the inputs are read (index_store.h).
  indexer::PreparedIndex prepared(args.index);
  {
    core::Progress progress("testmap ingest: reading", "files");
    read = new indexer::IngestInputs(
        indexer::ReadIngestInputs(args.files, args.test, [&](size_t, size_t total) {
          progress.SetTotal(total);
          progress.Add(1);
        }));
  }
  auto& inputs = *read;
  for (const auto& w : inputs.warnings) std::cerr << "testmap ingest: warning: " << w << "\n";
  size_t records = inputs.backends.size();
  for (const auto& scan : inputs.scans) records += scan.size();
  for (const auto& trace : inputs.traces) records += trace.runs.size() + trace.tests.size();
  for (const auto& timing : inputs.timings) records += timing.records.size();
  if (records == 0)  // exit 1, as any partial answer: the index is not even created
    throw core::InputError("nothing to ingest: no test, run, timing or backend record in " +
                           std::to_string(inputs.files.size()) + " file(s)");
  inputs.backend = args.backend;
  if (!inputs.backends.empty()) inputs.backend = indexer::ResolveBackendName(inputs);
  indexer::IngestSummary s;
  {
    // Opened first: waiting for another writer is said on a line of its own.
    auto store = indexer::IndexStore::Open(args.index, indexer::OpenMode::kWrite, indexer::kAllCfs,
                                           &prepared);
    core::Progress progress("testmap ingest: writing " + args.index, "");
    s = indexer::Ingest(*store, inputs);
  }
  for (const auto& w : s.warnings) std::cerr << "testmap ingest: warning: " << w << "\n";
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (args.format == "json") {
    nlohmann::json j = {{"index", args.index},
                        {"files", s.files},
                        {"runs", s.runs},
                        {"scanned_tests", s.scanned_tests},
                        {"traced_tests", s.traced_tests},
                        {"test_records", s.test_records},
                        {"edges", s.edges},
                        {"observations", s.observations},
                        {"timings", s.timings},
                        {"backend", s.backend},
                        {"backend_records", s.backend_records},
                        {"keys", s.keys},
                        {"seconds", seconds}};
    std::cout << j.dump(2) << "\n";
    return kExitAnswer;
  }
  std::cout << "ingested " << s.files << " file(s) into " << args.index << ": " << s.scanned_tests
            << " scanned tests, " << s.traced_tests << " traced tests (" << s.test_records
            << " test records from " << s.runs << " run(s)), " << s.edges << " op-test edges ("
            << s.observations << " dtype/device observations)";
  if (s.timings) std::cout << ", " << s.timings << " timing records";
  if (!s.backend.empty())
    std::cout << ", " << s.backend_records << " registrations of backend " << s.backend;
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
      "checked first: bad input leaves the index untouched. Backend records\n"
      "(`testmap backend scan|dump` output) are stored as that backend's capabilities\n"
      "under --backend NAME (default: the device of a `scan --device privateuse1:NAME`\n"
      "ingested with them), replacing what the index held for it.\n\n"
      "Examples:\n"
      "  testmap scan test/ --format jsonl > tests.jsonl\n"
      "  testmap trace --out traces -- pytest test/test_ops.py\n"
      "  testmap ingest tests.jsonl traces/\n"
      "  testmap ingest --index /data/index job-*/trace-*.jsonl\n"
      "  testmap ingest --test test_x.py::TestX::test_y run.log   # a TORCH_LOGS log of a test\n"
      "  testmap ingest --backend openreg openreg-records.jsonl");
  cmd->add_option("files", args->files, "Scan JSONL files, trace shards, trace directories")
      ->required();
  cmd->add_option("--test", args->test,
                  "The files are TORCH_LOGS logs (aot_graphs, post_grad_graphs) of this test: "
                  "their graphs' ops become its compile evidence (see `testmap logs parse`)");
  cmd->add_option("--backend", args->backend,
                  "Name to store backend records under (admit --backend NAME reads them)");
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
