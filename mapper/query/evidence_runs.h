// Which runs' evidence answers use for a test (docs/diff.md):
//   - runs a rescan retired for it (indexer/scan_supersede.h: its content
//     changed since, or it was removed) are left out;
//   - of the rest, the runs under the newest torch version the test was
//     traced on, all merged (a test traced on 2.13 and 2.14 answers with
//     2.14's evidence), or under the version asked for (`--torch`);
//   - static evidence (the scan's @ops edges) always, unless removed, and
//     runs that name no torch version (a TORCH_LOGS log ingested with
//     `--test`) with whichever version answers.
// With one torch version and nothing retired (the common index) it costs
// one read of the runs column family and nothing per test.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "indexer/index_reader.h"

namespace testmap::query {

class EvidenceRuns {
 public:
  // `torch` "" means the newest per test. Throws core::UnknownNameError
  // when `torch` names a version no run has.
  EvidenceRuns(const indexer::IndexReader& index, const std::string& torch);

  // Whether any test's evidence would be filtered in the index of `store`
  // (several torch versions, a version asked for, or retired runs): reads
  // only the runs and default column families.
  static bool Filters(const indexer::IndexStore& store, const std::string& torch);

  // Whether the evidence of `run` counts for `nodeid`.
  bool Keep(const std::string& nodeid, const std::string& run);
  // Whether `nodeid` is still a test (a rescan did not remove it).
  bool KeepTest(const std::string& nodeid);
  // Whether Keep() or KeepTest() can ever say no: callers over millions of
  // edges skip the calls when not.
  bool filters() const { return active_; }

 private:
  struct TestRuns {
    bool removed = false;
    std::set<std::string> retired;
    std::string version;  // the torch version whose runs count
  };
  const TestRuns& For(const std::string& nodeid);

  const indexer::IndexReader& index_;
  std::string torch_;
  bool active_ = false;
  std::map<std::string, std::string> run_torch_;  // run id -> torch version
  std::unordered_map<std::string, TestRuns> tests_;
};

// Orders torch versions as numbers (`2.14.1` after `2.9.0`, `2.14.0+cpu`
// by its release part, then the rest as text).
bool TorchVersionLess(const std::string& a, const std::string& b);

}  // namespace testmap::query
