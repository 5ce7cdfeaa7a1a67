// Bad input: truncated and corrupt trace lines, a trace from a newer format
// version, an index from a newer schema, a directory that is not an index.
// Each gets a clear message (file and line where there is one), a non-zero
// exit, and leaves the index exactly as it was.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/trace_format.h"
#include "indexer/index_store.h"
#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {

namespace fs = std::filesystem;
namespace {

class IndexBadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ScratchDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    index_ = dir_ + "/index";
    ASSERT_EQ(Testmap({"ingest", "--index", index_, ExampleSuiteEvidence().scan}).rc, 0);
    before_ = Dump();
    trace_lines_ = Lines(ReadFile(ExampleSuiteEvidence().trace));
  }
  std::string Dump() { return Testmap({"index", "dump", "--index", index_}).out; }
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string Join(size_t from, size_t to) {
    std::string text;
    for (size_t i = from; i < to && i < trace_lines_.size(); ++i) text += trace_lines_[i] + "\n";
    return text;
  }
  // Ingesting `path` must fail with `message` and leave the index alone.
  void ExpectRefused(const std::string& path, const std::string& message) {
    auto r = Testmap({"ingest", "--index", index_, ExampleSuiteEvidence().trace, path});
    EXPECT_NE(r.rc, 0);
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(Dump(), before_) << "a refused ingest changed the index";
  }
  std::string dir_, index_, before_;
  std::vector<std::string> trace_lines_;
};

// A writer that died mid-line: everything before the cut is ingested, the
// cut line is named in a warning (docs/trace-format.md, Crashes).
TEST_F(IndexBadInputTest, TruncatedLastLineIsReadUpToTheCutWithAWarning) {
  std::string text = Join(0, 6);
  std::string path =
      Write("trace-cut.jsonl", text + trace_lines_[6].substr(0, trace_lines_[6].size() / 2));
  std::string whole = Write("trace-whole.jsonl", text);
  auto r = Testmap({"ingest", "--index", index_, path});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find(path + ":7: last line cut short"), std::string::npos) << r.err;
  std::string cut_dump = Dump();
  // The same as ingesting the whole lines alone, but for the shard's path.
  std::string other = dir_ + "/other";
  ASSERT_EQ(Testmap({"ingest", "--index", other, ExampleSuiteEvidence().scan, whole}).rc, 0);
  auto strip_source = [](std::string d, const std::string& name) {
    for (size_t at; (at = d.find(name)) != std::string::npos;) d.erase(at, name.size());
    return d;
  };
  EXPECT_EQ(strip_source(cut_dump, path),
            strip_source(Testmap({"index", "dump", "--index", other}).out, whole));
}

// Fields that would split a key (NUL, the separator) or an edge value
// (tab, newline, comma) are refused with exit 1 before the index is
// opened: once, one such trace record made `index verify` fail and every
// query exit 2, and re-ingesting good data did not repair it.
TEST_F(IndexBadInputTest, KeyFieldsWithSeparatorBytesAreRefusedAndTheIndexStaysValid) {
  std::string run = trace_lines_[0] + "\n";
  std::string nul_trace = Write(
      "trace-nul.jsonl",
      run + R"({"type":"test","nodeid":"test_x.py::test_a\u0000b","outcome":"passed","ops":[]})" +
          "\n");
  auto r = Testmap({"ingest", "--index", index_, nul_trace});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find(nul_trace + ":2: node id `test_x.py::test_a\\x00b` holds the control "
                                   "character 0x00 at byte 17"),
            std::string::npos)
      << r.err;
  std::string device_trace = Write(
      "trace-tab.jsonl",
      run +
          R"({"type":"test","nodeid":"test_x.py::test_a","outcome":"passed","ops":[{"op":"aten::mm","device":"c\tpu"}]})" +
          "\n");
  ExpectRefused(device_trace, device_trace + ":2: device `c\\x09pu` holds the control character");
  std::string scan_line = ReadFile(ExampleSuiteEvidence().scan);
  scan_line = scan_line.substr(0, scan_line.find('\n'));
  std::string nul_scan = scan_line;
  nul_scan.replace(nul_scan.find("\"nodeid\":\"") + 10, 0, "\\u0000");
  std::string scan = Write("scan-nul.jsonl", scan_line + "\n" + nul_scan + "\n");
  ExpectRefused(scan, scan + ":2: node id `\\x00");
  std::string timings = Write("durations.json", "{\"test_x.py::a\\tb\": 1.5}\n");
  ExpectRefused(timings, timings + ":1: timing id `test_x.py::a\\x09b` holds the control");
  EXPECT_EQ(Dump(), before_);
  auto verify = Testmap({"index", "verify", "--index", index_});
  EXPECT_EQ(verify.rc, 0) << verify.out;
  EXPECT_EQ(Testmap({"stats", "--index", index_}).rc, 0);
}

// JSON or XML nested 100,000 deep on a file's first line once crashed
// ingest (SIGSEGV, recursing while building the error message): every
// reader checks the depth before anything recurses, and says where.
TEST_F(IndexBadInputTest, DeepNestingOnTheFirstLineIsRefusedWithoutACrash) {
  const std::string open(100000, '['), close(100000, ']');
  std::string deep = Write("deep.json", open + close + "\n");
  ExpectRefused(deep, deep + ":1: JSON nested deeper than 64 levels");
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"a\":";
  std::string deep_object = Write("deep-object.json", objects + "1" + std::string(100000, '}'));
  ExpectRefused(deep_object, deep_object + ":1: JSON nested deeper than 64 levels");
  std::string scan = Write("deep-scan.jsonl", R"({"nodeid":"a.py::t","generic_id":"a.py::t","x":)" +
                                                  open + close + "}\n");
  ExpectRefused(scan, scan + ":1: JSON nested deeper than 64 levels");
  std::string xml;
  for (int i = 0; i < 100000; ++i) xml += "<testsuite>";
  for (int i = 0; i < 100000; ++i) xml += "</testsuite>";
  std::string deep_xml = Write("deep.xml", "<testsuites>" + xml + "</testsuites>\n");
  // pugixml reads it without recursion; no <testcase> in it: nothing to ingest.
  auto r = Testmap({"ingest", "--index", index_, deep_xml});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("nothing to ingest"), std::string::npos) << r.err;
  EXPECT_EQ(Dump(), before_);
}

// An ingest that finds nothing to ingest is a partial answer (exit 1) and
// does not even create the index.
TEST_F(IndexBadInputTest, NothingToIngestIsExitOneAndCreatesNoIndex) {
  std::string empty_junit = Write("empty.xml", "<testsuites></testsuites>\n");
  std::string fresh = dir_ + "/fresh";
  auto r = Testmap({"ingest", "--index", fresh, empty_junit});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("nothing to ingest: no test, run, timing or backend record in 1 file(s)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(fresh));
}

// A filter value that matches nothing known is a typo, not an empty answer
// (`query --device cdua` once answered 0 tests with exit 0): exit 3 with the
// closest names, each once. An empty list of node ids has its own code.
TEST_F(IndexBadInputTest, FilterValuesThatNameNothingAreUnknownNames) {
  auto query = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"query", "--index", index_, "--op", "add"});
    return Testmap(args);
  };
  auto device = query({"--device", "cdua"});
  EXPECT_EQ(device.rc, 3);
  EXPECT_NE(device.err.find("unknown device `cdua`\ndid you mean: cuda cpu"), std::string::npos)
      << device.err;
  EXPECT_EQ(device.err.find("cpu cpu"), std::string::npos) << device.err;
  auto dtype = query({"--dtype", "flaot32"});
  EXPECT_EQ(dtype.rc, 3);
  EXPECT_NE(dtype.err.find("did you mean: float32"), std::string::npos) << dtype.err;
  auto role = query({"--role", "asert"});
  EXPECT_EQ(role.rc, 3);
  EXPECT_NE(role.err.find("did you mean: assert"), std::string::npos) << role.err;
  // A real device nothing ran on: an empty answer, and 4 as node ids.
  EXPECT_EQ(query({"--device", "cuda"}).rc, 0);
  auto none = query({"--device", "cuda", "--format", "nodeids"});
  EXPECT_EQ(none.rc, 4);
  EXPECT_EQ(none.out, "");
  auto explain =
      Testmap({"config", "explain", SourcePath("examples/backend-config/example_suite.yaml"),
               "--index", index_, "--device", "cdua"});
  EXPECT_EQ(explain.rc, 3) << explain.err;
  EXPECT_NE(explain.err.find("unknown device `cdua`"), std::string::npos) << explain.err;
}

TEST_F(IndexBadInputTest, CorruptLineInTheMiddleNamesFileAndLine) {
  std::string text =
      Join(0, 4) + "{\"type\":\"test\",\"nodeid\":\"x\",\"ops\":[{\"op\":\n" + Join(4, 10);
  std::string path = Write("trace-corrupt.jsonl", text);
  ExpectRefused(path, path + ":5: corrupt record, not JSON");
}

TEST_F(IndexBadInputTest, NewerTraceFormatIsRefused) {
  std::string run = trace_lines_[0];
  const std::string current = "\"version\":" + std::to_string(core::kTraceFormatVersion);
  size_t at = run.find(current);
  ASSERT_NE(at, std::string::npos);
  const std::string newer = std::to_string(core::kTraceFormatVersion + 1);
  run.replace(at, current.size(), "\"version\":" + newer);
  std::string path = Write("trace-newer.jsonl", run + "\n" + Join(1, 5));
  ExpectRefused(path,
                path + ":1: trace format version " + newer + " is newer than this testmap reads");
}

TEST_F(IndexBadInputTest, DamagedRecordsAreRefused) {
  ExpectRefused(Write("trace-type.jsonl", Join(0, 1) + "{\"type\":\"mystery\"}\n"),
                ":2: unknown record type `mystery`");
  // The real shard's second record: its collection (version 3).
  ExpectRefused(Write("trace-norun.jsonl", Join(1, 3)),
                ":1: `collection` record before the shard's `run` record");
  ExpectRefused(Write("trace-op.jsonl",
                      Join(0, 1) + "{\"type\":\"test\",\"nodeid\":\"a.py::t\",\"outcome\":"
                                   "\"passed\",\"duration\":1,\"ops\":[{\"op\":\"not an op\"}]}\n"),
                ":2: `not an op` is not an operator name");
  ExpectRefused(
      Write("trace-dur.jsonl", Join(0, 1) + "{\"type\":\"test\",\"nodeid\":\"a.py::t\",\"outcome\":"
                                            "\"passed\",\"duration\":-3,\"ops\":[]}\n"),
      ":2: duration of a.py::t is negative (-3 s)");
  // Timing files are ingested too (JUnit XML, .test_durations,
  // test-times.json); anything else, or a broken one, is refused.
  ExpectRefused(Write("notes.txt", "hello\n"), "notes.txt:1: neither a testmap trace shard");
  ExpectRefused(Write("junit.xml", "<testsuites><testcase\n"), "junit.xml:");
  ExpectRefused(dir_ + "/missing.jsonl", "missing.jsonl: no such file or directory");
}

// Not even beside it: the empty index an ingest builds while it reads its
// inputs (IndexStore's PreparedIndex) goes again, and no folder is made.
TEST_F(IndexBadInputTest, BadInputNeverCreatesAnIndex) {
  std::string path = Write("trace-bad.jsonl", Join(0, 3) + "{\"type\":\n" + Join(3, 4));
  for (std::string fresh : {dir_ + "/fresh", dir_ + "/new/parents/fresh"}) {
    auto r = Testmap({"ingest", "--index", fresh, path});
    EXPECT_NE(r.rc, 0);
    EXPECT_FALSE(fs::exists(fresh));
  }
  EXPECT_FALSE(fs::exists(dir_ + "/new"));
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_FALSE(entry.path().filename().string().starts_with("fresh")) << entry.path();
}

TEST_F(IndexBadInputTest, IndexFromANewerSchemaIsRefused) {
  {
    // Written through the store itself, as a future testmap would.
    auto store = indexer::IndexStore::Open(index_, indexer::OpenMode::kWrite);
    indexer::IndexBatch batch;
    batch.Put(indexer::Cf::kDefault, indexer::kSchemaVersionKey,
              std::to_string(indexer::kSchemaVersion + 1));
    store->Commit(batch);
  }
  for (std::vector<std::string> args : {std::vector<std::string>{"query", "--op", "add"},
                                        {"ingest", ExampleSuiteEvidence().trace},
                                        {"index", "verify"},
                                        {"stats"}}) {
    args.insert(args.begin() + (args[0] == "index" ? 2 : 1), {"--index", index_});
    auto r = Testmap(args);
    EXPECT_NE(r.rc, 0) << args[0];
    EXPECT_NE(r.err.find("index schema version " + std::to_string(indexer::kSchemaVersion + 1) +
                         " is newer than this testmap (schema " +
                         std::to_string(indexer::kSchemaVersion) + ")"),
              std::string::npos)
        << r.err;
  }
}

TEST_F(IndexBadInputTest, DirectoryThatIsNotAnIndex) {
  std::string other = dir_ + "/not-an-index";
  fs::create_directories(other);
  Write("not-an-index/notes.txt", "hello\n");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"query", "--op", "add", "--index", other},
        {"ingest", ExampleSuiteEvidence().trace, "--index", other},
        {"show", "x", "--index", other}}) {
    auto r = Testmap(args);
    EXPECT_NE(r.rc, 0);
    EXPECT_NE(r.err.find(other + " is not a testmap index"), std::string::npos) << r.err;
  }
  // Untouched: still just the one file.
  EXPECT_EQ(std::distance(fs::directory_iterator(other), fs::directory_iterator()), 1);
  auto r = Testmap({"query", "--op", "add", "--index", dir_ + "/nowhere"});
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("no testmap index at"), std::string::npos) << r.err;
}

// A full disk, here a file-size limit (RocksDB's writes fail as on a full
// disk, and no root is needed to set one): an error naming the index, exit
// 1, the index as it was, and no staging files left taking space. It was
// an abort in RocksDB's info log writer (core/rocksdb_no_log.h).
TEST_F(IndexBadInputTest, AFullDiskIsAnErrorAndLeavesTheIndexAsItWas) {
  const std::string trace = ExampleSuiteEvidence().trace;
  for (int blocks : {8, 32, 64}) {  // sh's ulimit -f: blocks of 512 bytes
    auto r = RunCommand({"sh", "-c",
                         "trap '' XFSZ; ulimit -f " + std::to_string(blocks) + "; exec '" +
                             TestmapBin() + "' ingest --index '" + index_ + "' '" + trace + "'"});
    EXPECT_EQ(r.rc, 1) << blocks << " blocks: " << r.err;
    EXPECT_NE(r.err.find(index_ + ": index write failed"), std::string::npos) << r.err;
    EXPECT_EQ(Dump(), before_) << blocks << " blocks";
    for (const auto& e : fs::directory_iterator(index_))
      EXPECT_FALSE(e.path().filename().string().starts_with(".ingest-")) << e.path();
  }
  // With room, the same ingest lands.
  auto r = Testmap({"ingest", "--index", index_, trace});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(Dump(), before_);
}

TEST_F(IndexBadInputTest, UnknownDtypeListsTorchNames) {
  ASSERT_EQ(Testmap({"ingest", "--index", index_, ExampleSuiteEvidence().trace}).rc, 0);
  auto r = Testmap({"query", "--index", index_, "--op", "add", "--dtype", "float33"});
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("unknown dtype `float33`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bfloat16"), std::string::npos);
  // Other spellings of a dtype are fine.
  auto a = Testmap(
      {"query", "--index", index_, "--op", "add", "--dtype", "bf16", "--format", "nodeids"});
  auto b = Testmap(
      {"query", "--index", index_, "--op", "add", "--dtype", "BFloat16", "--format", "nodeids"});
  EXPECT_EQ(a.rc, 0);
  EXPECT_EQ(a.out, b.out);
  EXPECT_FALSE(a.out.empty());
}

}  // namespace
}  // namespace testmap::testing
