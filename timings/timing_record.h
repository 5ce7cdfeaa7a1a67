// Plain timing records, as every reader produces them and as the index will
// ingest them. One record is one observation of one test (or class, or file)
// in one run; summarizing several runs is timing_summary.h's job.
#pragma once

#include <string>

#include "core/duration.h"

namespace testmap::timings {

// What a timing is about. PyTorch's test-times.json only knows files (or
// classes in its class-level variant); JUnit XML and .test_durations know
// single tests.
enum class TimingLevel { kTest, kClass, kFile };

// How the observed run ended. Skipped runs are kept (so a caller can tell
// "never timed" from "always skipped") but never count as a duration: a
// skipped test is not a fast test.
enum class Outcome { kPassed, kFailed, kError, kSkipped };

struct TimingRecord {
  // The item exactly as the input spells it: a pytest node id
  // ("test_ops.py::TestCommonCPU::test_out_cpu_float32"), a PyTorch file name
  // without ".py" ("test_nn", "inductor/test_flex_attention"), or file::Class
  // for the class-level variant of test-times.json.
  std::string id;
  // File key: the path without ".py", the same spelling test-times.json
  // uses, so timings of different formats line up by file.
  std::string file;
  // Class name as written in the node id (the instantiated class,
  // "TestCommonCPU"); empty for module-level tests and file-level timings.
  std::string cls;
  TimingLevel level = TimingLevel::kTest;
  double seconds = 0;
  Outcome outcome = Outcome::kPassed;
  // Set when the run retried the test (pytest-rerunfailures): the duration
  // then includes every attempt.
  bool rerun = false;
  // PyTorch's job (build environment) and test config; empty when the format
  // has no such notion (JUnit XML, .test_durations).
  std::string job;
  std::string config;
  // A feature label when the input carries one (a JUnit <property
  // name="feature">); used by `plan --group-by feature`.
  std::string feature;
  // Where the record came from, for error messages and provenance.
  std::string source;
  int line = 0;
};

// Human name of an outcome, as used in JSON output ("passed", "skipped"...).
const char* OutcomeName(Outcome outcome);
// The reverse, also reading pytest's and the tracer's spellings: "crashed"
// counts as skipped (untimed), anything unknown as passed.
Outcome OutcomeFromName(const std::string& name);

// The duration rule (finite, non-negative, at most a week) is core's, shared
// with the trace reader: every reader calls CheckDuration on every duration
// it reads.
using core::CheckDuration;
using core::kMaxDurationSeconds;

// "test", "class" or "file", and back.
const char* TimingLevelName(TimingLevel level);
TimingLevel TimingLevelFromName(const std::string& name);

}  // namespace testmap::timings
