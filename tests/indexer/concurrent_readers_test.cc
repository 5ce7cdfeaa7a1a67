// Readers during ingestion: `testmap query` and `testmap show` processes
// run while other processes ingest new shards; none of them may fail, wait
// for the writer, or see anything but a complete state. Two writers at
// once queue up instead of failing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;

// Another run's shard: the same tests, a different run record.
std::string VariantShard(const std::string& dir, int n) {
  std::string text = ReadFile(ExampleSuiteEvidence().trace);
  size_t at = text.find("\"start_time\":\"");
  text.replace(at + 14, 4, std::to_string(1900 + n));
  std::string path = dir + "/trace-job" + std::to_string(n) + ".jsonl";
  std::ofstream(path) << text;
  return path;
}

TEST(IndexConcurrentReadersTest, QueriesNeverFailOrBlockDuringIngest) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string dir = ScratchDir("concurrent");
  std::string index = dir + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.scan, ev.trace}).rc, 0);
  auto first = Testmap({"query", "--index", index, "--op", "_scaled_mm", "--format", "nodeids"});
  ASSERT_EQ(first.rc, 0);
  ASSERT_FALSE(first.out.empty());
  std::string one_test = Lines(first.out).front();
  const int kShards = 8;
  std::vector<std::string> shards;
  for (int i = 0; i < kShards; ++i) shards.push_back(VariantShard(dir, i));

  std::atomic<bool> writing{true};
  std::atomic<int> queries{0}, failures{0};
  std::atomic<int64_t> slowest_ms{0};
  std::vector<std::string> errors(2);
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&, r] {
      size_t last_runs = 1;
      while (writing) {
        auto start = std::chrono::steady_clock::now();
        auto q = Testmap({"query", "--index", index, "--op", "_scaled_mm", "--format", "nodeids"});
        auto s = Testmap({"show", "--index", index, one_test});
        int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - start)
                         .count();
        slowest_ms = std::max<int64_t>(slowest_ms, ms);
        ++queries;
        json doc = json::parse(s.out, nullptr, false);
        size_t runs = doc.is_object() ? doc["outcomes"].size() : 0;
        // Runs only ever grow, one whole shard at a time.
        if (q.rc != 0 || q.out != first.out || s.rc != 0 || runs < last_runs ||
            runs > kShards + 1) {
          ++failures;
          errors[r] = "query rc " + std::to_string(q.rc) + " (" + q.err + "), same answer " +
                      std::to_string(q.out == first.out) + " (" +
                      std::to_string(Lines(q.out).size()) + " lines), show rc " +
                      std::to_string(s.rc) + " (" + s.err + "), runs " + std::to_string(runs) +
                      " after " + std::to_string(last_runs) + "\n";
        }
        last_runs = runs;
      }
    });
  }
  // Two writers at a time: the second waits for the first's lock.
  std::thread other_writer([&] {
    for (int i = kShards / 2; i < kShards; ++i) {
      auto w = Testmap({"ingest", "--index", index, shards[i]});
      if (w.rc != 0) ++failures, errors[0] = "writer: " + w.err;
    }
  });
  for (int i = 0; i < kShards / 2; ++i) {
    auto w = Testmap({"ingest", "--index", index, shards[i]});
    EXPECT_EQ(w.rc, 0) << w.err;
  }
  other_writer.join();
  writing = false;
  for (auto& t : readers) t.join();
  EXPECT_EQ(failures, 0) << errors[0] << errors[1];
  EXPECT_GE(queries, 4);
  EXPECT_LT(slowest_ms, 5000) << "a reader waited for the writer";
  std::cout << queries << " query+show pairs during " << kShards << " ingests, slowest "
            << slowest_ms << " ms\n";
  auto verify = Testmap({"index", "verify", "--index", index, "--format", "json"});
  ASSERT_EQ(verify.rc, 0) << verify.out;
  EXPECT_EQ(json::parse(verify.out)["runs"], kShards + 1);
}

// What makes the race above deterministic: a committed state must be in
// the table files, never only in a write-ahead log, because a reader can
// miss a WAL that the next writer's recovery turns into a table file and
// deletes while the reader opens. So a copy of the index without its WAL
// files answers as the index does, after the ingest that creates it and
// after one more.
TEST(IndexConcurrentReadersTest, ACommittedStateDoesNotLiveOnlyInTheWal) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string dir = ScratchDir("no-wal");
  std::string index = dir + "/index";
  for (int ingests = 1; ingests <= 2; ++ingests) {
    std::vector<std::string> args{"ingest", "--index", index};
    if (ingests == 1)
      args.insert(args.end(), {ev.scan, ev.trace});
    else
      args.push_back(VariantShard(dir, 1));
    auto w = Testmap(args);
    ASSERT_EQ(w.rc, 0) << w.err;
    std::string copy = dir + "/copy" + std::to_string(ingests);
    std::filesystem::copy(index, copy, std::filesystem::copy_options::recursive);
    int wals = 0;
    for (const auto& e : std::filesystem::directory_iterator(copy))
      if (e.path().extension() == ".log") wals += std::filesystem::remove(e.path());
    EXPECT_GE(wals, 1) << "RocksDB keeps a live WAL: the copy must lack it to test anything";
    auto want = Testmap({"query", "--index", index, "--op", "_scaled_mm", "--format", "nodeids"});
    auto got = Testmap({"query", "--index", copy, "--op", "_scaled_mm", "--format", "nodeids"});
    ASSERT_EQ(want.rc, 0) << want.err;
    EXPECT_EQ(got.rc, 0) << "after ingest " << ingests << ": " << got.err;
    EXPECT_EQ(got.out, want.out);
    auto stats = Testmap({"stats", "--index", copy, "--format", "json"});
    EXPECT_EQ(stats.rc, 0) << stats.err;
  }
}

}  // namespace
}  // namespace testmap::testing
