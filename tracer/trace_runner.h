// `testmap trace`'s work: run pytest in a child process with the
// testmap_trace plugin and a recorder, then finish its shards (crashed tests
// recorded by this parent, which outlives them), optionally resuming after
// a test that killed pytest. Torch-free: the recorder is loaded by pytest.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace testmap::tracer {

struct TraceRunOptions {
  std::string out = ".testmap/traces";  // directory for the shards
  bool reference = false;     // the Python TorchDispatchMode recorder instead of the C++ one
  bool compile_logs = false;  // TORCH_LOGS graphs per test (evidence compile)
  bool keep = false;          // append to the shards in `out` instead of replacing them
  bool resume = false;        // after a test that ends pytest, run the rest
  std::string python;         // with torch and pytest; "" = $TESTMAP_PYTHON, else configured
  // The pytest command line: `pytest ARGS...` or `python -m pytest ARGS...`.
  std::vector<std::string> pytest_command;
  // The `testmap trace ...` command line, for the run metadata.
  std::vector<std::string> command_line;
  // When set, called about five times a second while pytest runs with the
  // tests finished so far (read from the shards as they grow).
  std::function<void(size_t finished_tests)> progress;
};

struct TraceRunResult {
  std::string out;  // absolute
  std::vector<std::string> shards;
  std::vector<std::string> removed_shards;  // of an earlier run (without `keep`)
  size_t tests = 0;
  std::map<std::string, size_t> outcomes;
  std::vector<std::string> crashed;
  size_t ops = 0, eager_records = 0, compile_records = 0;
  std::vector<std::string> warnings;
  double seconds = 0;
  std::string recorder;  // cpp | reference
  // pytest's exit status (128 + signal when killed); 1 when a test crashed
  // and the rest was resumed successfully: the run still failed.
  int exit_code = 0;
};

// Runs the trace. Throws core::UsageError for a command that is not
// pytest, core::InputError for an unusable `out` or a missing tracer part.
TraceRunResult RunTrace(const TraceRunOptions& options);

}  // namespace testmap::tracer
