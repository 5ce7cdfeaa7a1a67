// Crash safety: `testmap ingest` is SIGKILLed at random points (at least
// 50 times); after each kill the index must open, pass `index verify`, and
// hold exactly the old state or exactly the new one (compared by `index
// dump`), never a mix.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "indexer/index_store.h"
#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {

namespace fs = std::filesystem;
namespace {

pid_t Spawn(const std::vector<std::string>& argv) {
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

void CopyIndex(const std::string& from, const std::string& to) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
}

std::string Dump(const std::string& index) {
  auto r = Testmap({"index", "dump", "--index", index});
  EXPECT_EQ(r.rc, 0) << r.err;
  return r.out;
}

TEST(IngestCrashSafetyTest, KilledIngestLeavesOldOrNewStateNeverAMix) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string dir = ScratchDir("crash");
  // Old state: the scan only. New state: scan plus the trace.
  std::string old_index = dir + "/old", new_index = dir + "/new", work = dir + "/work";
  ASSERT_EQ(Testmap({"ingest", "--index", old_index, ev.scan}).rc, 0);
  CopyIndex(old_index, new_index);
  auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(Testmap({"ingest", "--index", new_index, ev.trace}).rc, 0);
  double ingest_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  std::string old_dump = Dump(old_index), new_dump = Dump(new_index);
  ASSERT_NE(old_dump, new_dump);

  std::mt19937 rng(20261129);
  // Kill points spread over the whole process life (start-up, parsing, SST
  // writing, the commit, shutdown), a little past its usual end.
  std::uniform_real_distribution<double> when(0, ingest_us * 1.1);
  int saw_old = 0, saw_new = 0, saw_none = 0, saw_unfinished = 0;
  const int kKills = 60;
  for (int i = 0; i < kKills; ++i) {
    bool fresh = i % 6 == 5;  // every sixth run: the very first ingest
    if (fresh) {
      fs::remove_all(work);
    } else {
      CopyIndex(old_index, work);
    }
    std::vector<std::string> argv = {TestmapBin(), "ingest", "--index", work, ev.trace};
    if (fresh) argv.push_back(ev.scan);
    pid_t pid = Spawn(argv);
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(when(rng))));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (fresh && !fs::exists(work + "/CURRENT")) {
      ++saw_none;  // killed before the index existed: still no index...
      auto query = Testmap({"query", "--index", work, "--op", "mm"});
      EXPECT_NE(query.rc, 0);
      // ...and what the killed creation left does not stand in the way.
      ASSERT_EQ(Testmap({"ingest", "--index", work, ev.trace, ev.scan}).rc, 0);
      EXPECT_EQ(Dump(work), new_dump);
      continue;
    }
    auto verify = Testmap({"index", "verify", "--index", work});
    if (fresh && verify.rc != 0) {
      // Killed between creating the index and its first commit: refused as
      // unfinished, never an empty index that answers "no tests"...
      ++saw_unfinished;
      EXPECT_NE(verify.err.find("an unfinished index"), std::string::npos) << verify.err;
      EXPECT_EQ(Testmap({"query", "--index", work, "--op", "mm"}).rc, 1);
      // ...and the next ingest completes it.
      ASSERT_EQ(Testmap({"ingest", "--index", work, ev.trace, ev.scan}).rc, 0);
      EXPECT_EQ(Dump(work), new_dump);
      continue;
    }
    ASSERT_EQ(verify.rc, 0) << "kill " << i << ": " << verify.out << verify.err;
    std::string dump = Dump(work);
    if (dump == new_dump) {
      ++saw_new;
    } else if (dump == old_dump) {
      ++saw_old;
    } else {
      FAIL() << "kill " << i << " left a state that is neither old nor new";
    }
    // And the survivor is usable: the interrupted ingest can simply rerun.
    if (i % 10 == 0) {
      ASSERT_EQ(Testmap({"ingest", "--index", work, ev.trace, ev.scan}).rc, 0);
      EXPECT_EQ(Dump(work), new_dump);
    }
  }
  // No half-created index is left beside it either.
  for (const auto& entry : fs::directory_iterator(dir)) {
    EXPECT_EQ(entry.path().filename().string().find(".creating-"), std::string::npos)
        << entry.path();
  }
  std::cout << "kills: " << kKills << ", old state " << saw_old << ", new state " << saw_new
            << ", no index yet " << saw_none << ", unfinished " << saw_unfinished
            << " (ingest takes " << ingest_us / 1000 << " ms)\n";
  // The kill points must actually have covered both outcomes.
  EXPECT_GT(saw_old + saw_none, 0);
  EXPECT_GT(saw_new, 0);
}

// The state a kill between creation and the first commit leaves, made on
// purpose: every reader refuses it as unfinished (exit 1, never an empty
// answer), and the next ingest completes it into a valid index.
TEST(IngestCrashSafetyTest, IndexCreatedButNeverCommittedIsUnfinishedUntilTheNextIngest) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string index = ScratchDir("unfinished") + "/index";
  indexer::IndexStore::Open(index, indexer::OpenMode::kWrite).reset();  // created, no commit
  ASSERT_TRUE(fs::exists(index + "/CURRENT"));
  for (std::vector<std::string> args :
       {std::vector<std::string>{"query", "--op", "mm"}, {"stats"}, {"ops"}, {"index", "verify"}}) {
    args.insert(args.end(), {"--index", index});
    auto r = Testmap(args);
    EXPECT_EQ(r.rc, 1) << args[0];
    EXPECT_NE(r.err.find(index + ": an unfinished index"), std::string::npos) << r.err;
  }
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.scan}).rc, 0);
  auto verify = Testmap({"index", "verify", "--index", index});
  EXPECT_EQ(verify.rc, 0) << verify.out << verify.err;
  auto stats = Testmap({"stats", "--index", index, "--format", "json"});
  EXPECT_EQ(stats.rc, 0) << stats.err;
}

}  // namespace
}  // namespace testmap::testing
