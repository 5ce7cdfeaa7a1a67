// Real evidence of the bundled example suite (examples/suite): the real
// `testmap scan` and `testmap trace --compile-logs` outputs, made once per
// build tree and shared by every test process (ctest runs each case in a
// process of its own, and a trace takes most of a minute). Cached under
// build/testdata/suite-evidence behind a file lock, remade when a file of
// the suite changes.
#pragma once

#include <string>

namespace testmap::testing {

struct SuiteEvidence {
  std::string suite;  // examples/suite
  std::string scan;   // testmap scan --format jsonl output
  std::string trace;  // the trace-main.jsonl shard
};

const SuiteEvidence& ExampleSuiteEvidence();

}  // namespace testmap::testing
