// What a timing file says about whole processes besides its tests: a JUnit
// <testsuite time="..."> is one pytest session's wall time, a trace shard
// runs from its `run` record's start to its last test's end. The wall time
// less the tests' own durations is what the process paid around them
// (collection, module imports, torch's import, session teardown), which a
// plan must add to predict how long a split really takes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace testmap::timings {

struct ProcessWall {
  std::string source;  // the file, for messages
  int line = 0;        // of the <testsuite> or `run` record
  double wall_seconds = 0;
  double test_seconds = 0;  // sum of its tests' durations, skipped ones included
  int tests = 0;
  int files = 0;  // distinct test files it ran (collected)
  // When the session (JUnit <testsuite timestamp>) or run (`run` record's
  // start_time) began, in epoch seconds; < 0 when the report does not say.
  // With the host, the gaps between processes that ran one after another
  // tell what each paid outside its session (fixed_costs.h).
  double start = -1;
  std::string host;  // JUnit hostname, the run's metadata.hostname; "" unknown
  // What a trace run's pytest collected (its `collection` record): the
  // tests it built per file key, deselected ones included; empty when the
  // input does not say (JUnit, older shards). A `--collect-only` run is a
  // process of no tests with files.
  std::map<std::string, int> collection;
  // The records of this process in the reader's output: [first, end).
  size_t first_record = 0, end_record = 0;

  // What the process paid around its tests; never negative (rounding in
  // the writer can make the sum of tests exceed the wall by milliseconds).
  double Overhead() const { return wall_seconds > test_seconds ? wall_seconds - test_seconds : 0; }
};

// The wall of one trace run, built the same way from a shard and from the
// index that ingested it (a plan from either is the same plan): from the
// `run` record's metadata.start_time to the last test's end, or to the end
// of collecting when it ran none.
class TraceRunWall {
 public:
  // Starts a run; false (and nothing is built) when its record has no
  // readable start_time. `first_record` is where its tests' records begin.
  bool Start(std::string_view run_record, const std::string& source, int line, size_t first_record);
  // What the run collected (its `collection` record, which the index keeps
  // in the run record as "collection"; Start reads it there): the files as
  // node ids spell them, the tests built of each, when collecting ended.
  void AddCollection(double end, const std::vector<std::pair<std::string, int64_t>>& files);
  // One test of the run: its file key, duration and start (epoch seconds).
  void AddTest(const std::string& file, double seconds, std::optional<double> start);
  // The run's wall, when it ran tests or collected some file, and lasted no
  // longer than kMaxDurationSeconds; `end_record` ends its records.
  std::optional<ProcessWall> Finish(size_t end_record);

 private:
  bool open_ = false;
  ProcessWall wall_;
  double start_ = 0, end_ = 0;
  std::set<std::string> files_;
};

// Seconds since the epoch of an ISO 8601 time as Python's isoformat()
// writes it: the plugin's start_time ("2026-12-01T08:00:00.123456+00:00"),
// pytest's JUnit timestamp (local time with its offset, "...T09:00:00+01:00";
// pytest before 8 wrote no offset, read here as UTC: only differences
// between times of one machine are used), "Z"; a negative number when it
// does not read as one.
double EpochOfIso(const std::string& iso);

}  // namespace testmap::timings
