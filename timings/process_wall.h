// What a timing file says about whole processes besides its tests: a JUnit
// <testsuite time="..."> is one pytest session's wall time, a trace shard
// runs from its `run` record's start to its last test's end. The wall time
// less the tests' own durations is what the process paid around them
// (collection, module imports, torch's import, session teardown), which a
// plan must add to predict how long a split really takes.
#pragma once

#include <cstddef>
#include <string>

namespace testmap::timings {

struct ProcessWall {
  std::string source;  // the file, for messages
  int line = 0;        // of the <testsuite> or `run` record
  double wall_seconds = 0;
  double test_seconds = 0;  // sum of its tests' durations, skipped ones included
  int tests = 0;
  int files = 0;  // distinct test files it ran (collected)
  // The records of this process in the reader's output: [first, end).
  size_t first_record = 0, end_record = 0;

  // What the process paid around its tests; never negative (rounding in
  // the writer can make the sum of tests exceed the wall by milliseconds).
  double Overhead() const { return wall_seconds > test_seconds ? wall_seconds - test_seconds : 0; }
};

}  // namespace testmap::timings
