// The one trace reader's rules (docs/trace-format.md), each on a shard
// written for the case; real shards from real pytest runs are read through
// it by every tracer, index and timings test.
#include "core/trace_reader.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/key_field.h"
#include "core/trace_format.h"

namespace testmap::core {
namespace {

const std::string kRun =
    R"({"type":"run","format":"testmap-trace","version":1,"worker":"main","metadata":{}})";

struct Collected : TraceVisitor {
  std::vector<TraceRun> runs;
  struct Test {
    std::string nodeid, outcome, crash_reason, outcome_json;
    bool unfinished;
    std::string worker;
    std::optional<double> duration;
    std::vector<std::string> ops;
  };
  std::vector<Test> tests;
  std::vector<std::string> warnings;
  void Run(const TraceRun& r) override { runs.push_back(r); }
  void Test(const TraceTest& t) override {
    std::vector<std::string> ops;
    for (const auto& op : t.ops) {
      std::string dtypes;
      for (auto d : op.dtypes) dtypes += "," + std::string(d);
      ops.push_back(std::string(op.packet) + "|" + std::string(op.overload) + "|" +
                    std::string(op.evidence) + "|" + std::string(op.device) + "|" + dtypes + "|" +
                    std::to_string(op.count));
    }
    tests.push_back({std::string(t.nodeid), std::string(t.outcome), t.crash_reason, t.outcome_json,
                     t.unfinished, std::string(t.worker), t.duration, ops});
  }
  void Warning(const std::string& m) override { warnings.push_back(m); }
};

Collected Read(const std::string& text, const TraceReadOptions& options = {}) {
  Collected c;
  ReadTrace(text, "s.jsonl", c, options);
  return c;
}

std::string ErrorOf(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TraceReader, NormalizesOperatorAndDtypeSpellings) {
  auto c = Read(
      kRun + "\n" +
      R"({"type":"test","nodeid":"t.py::a","outcome":"passed","duration":0.5,"start":1,)"
      R"("worker":"main","phases":{},"ops":[{"op":"aten.add.Tensor","dtypes":["Float","bf16"],)"
      R"("device":"cpu","count":3,"evidence":"eager"},{"op":"aten::_local_scalar_dense",)"
      R"("dtypes":[],"device":null,"evidence":"compile"}]})" +
      "\n");
  ASSERT_EQ(c.runs.size(), 1u);
  EXPECT_EQ(c.runs[0].version, 1);
  ASSERT_EQ(c.tests.size(), 1u);
  EXPECT_EQ(c.tests[0].ops,
            (std::vector<std::string>{"aten::add|Tensor|eager|cpu|,float32,bfloat16|3",
                                      "aten::_local_scalar_dense||compile|||1"}));
  EXPECT_EQ(c.tests[0].duration, 0.5);
  EXPECT_EQ(c.tests[0].outcome_json,
            R"({"outcome":"passed","duration":0.5,"start":1,"worker":"main","phases":{}})");
}

TEST(TraceReader, RolesAreReadAndVersionOneOpsAreTheTestsOwn) {
  struct Roles : TraceVisitor {
    std::vector<std::string> roles;
    void Test(const TraceTest& t) override {
      for (const auto& op : t.ops) roles.emplace_back(op.role);
    }
  };
  const std::string test =
      R"({"type":"test","nodeid":"t.py::a","outcome":"passed","ops":[)"
      R"({"op":"aten::abs","dtypes":["float32"],"device":"cpu","role":"assert"},)"
      R"({"op":"aten::view","dtypes":["float32"],"device":"cpu"},)"
      R"({"op":"aten::ones","dtypes":["float32"],"device":"cpu","role":"setup"}]})";
  std::string v2 = kRun;
  v2.replace(v2.find("\"version\":1"), 11, "\"version\":2");
  Roles read;
  ReadTrace(v2 + "\n" + test + "\n", "s.jsonl", read);
  EXPECT_EQ(read.roles, (std::vector<std::string>{"assert", "test", "setup"}));
  // Version 1 knew no roles: everything is the test's own.
  Roles v1;
  ReadTrace(
      kRun + "\n" +
          R"({"type":"test","nodeid":"t.py::a","outcome":"passed","ops":[{"op":"aten::mm"}]})" +
          "\n",
      "s.jsonl", v1);
  EXPECT_EQ(v1.roles, (std::vector<std::string>{"test"}));
  EXPECT_NE(ErrorOf(v2 + "\n" +
                    R"({"type":"test","nodeid":"a","outcome":"passed","ops":[{"op":"aten::mm",)"
                    R"("role":"asert"}]})" +
                    "\n")
                .find("s.jsonl:2: unknown role `asert` for aten::mm"),
            std::string::npos);
}

TEST(TraceReader, UnfinishedTestsAreCrashes) {
  auto c = Read(kRun + "\n" + R"({"type":"begin","nodeid":"t.py::a","worker":"gw0","time":5})" +
                    "\n" + kRun + "\n" + R"({"type":"begin","nodeid":"t.py::b"})" + "\n",
                {"killed by signal 9"});
  ASSERT_EQ(c.tests.size(), 2u);
  // Ended by the next process of the same shard (a restarted xdist worker).
  EXPECT_TRUE(c.tests[0].unfinished);
  EXPECT_EQ(c.tests[0].outcome, "crashed");
  EXPECT_EQ(c.tests[0].crash_reason, kUnfinishedCrashReason);
  EXPECT_EQ(c.tests[0].duration, std::nullopt);
  EXPECT_NE(c.tests[0].outcome_json.find(R"("start":5,"worker":"gw0")"), std::string::npos);
  EXPECT_EQ(c.tests[0].worker, "gw0");  // the crash record `testmap trace` appends names it
  // Still running when the shard ends: the caller's reason.
  EXPECT_EQ(c.tests[1].crash_reason, "killed by signal 9");
}

TEST(TraceReader, EveryVersionFromOneUpToTheCurrentIsRead) {
  for (int v = 1; v <= kTraceFormatVersion; ++v) {
    std::string run = kRun;
    run.replace(run.find("\"version\":1"), 11, "\"version\":" + std::to_string(v));
    EXPECT_EQ(Read(run + "\n").runs.at(0).version, v);
  }
  std::string newer = kRun;
  newer.replace(newer.find("\"version\":1"), 11,
                "\"version\":" + std::to_string(kTraceFormatVersion + 1));
  EXPECT_NE(ErrorOf(newer + "\n")
                .find("s.jsonl:1: trace format version " + std::to_string(kTraceFormatVersion + 1) +
                      " is newer than this testmap reads"),
            std::string::npos);
  std::string zero = kRun;
  zero.replace(zero.find("\"version\":1"), 11, "\"version\":0");
  EXPECT_NE(ErrorOf(zero + "\n").find("s.jsonl:1: trace format version 0 is not one"),
            std::string::npos);
}

TEST(TraceReader, ALastLineCutShortIsDroppedWithAWarning) {
  auto c = Read(kRun + "\n" + R"({"type":"begin","nodeid":"t.py::a"})" + "\n" +
                R"({"type":"test","nodeid":"t.py::a","outc)");
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("s.jsonl:3: last line cut short"), std::string::npos);
  ASSERT_EQ(c.tests.size(), 1u);
  EXPECT_TRUE(c.tests[0].unfinished);
  // A complete last record without its newline is a record, not a cut.
  auto whole = Read(kRun + "\n" + R"({"type":"begin","nodeid":"t.py::a"})");
  EXPECT_TRUE(whole.warnings.empty());
}

// Lines are parsed in place, except the last few (simdjson reads past a
// line's end, and only they lack the text after them), which are copied;
// each test's ops reuse the previous test's storage. Records alternating
// between every field set and none read the same wherever they stand, and
// nothing of one test's ops carries over into the next.
TEST(TraceReader, LinesInPlaceAndAtTheEndReadAlikeAndOpsDoNotCarryOver) {
  const std::string full =
      R"([{"op":"aten::add.Tensor","dtypes":["Float"],"device":"cpu","count":2,"role":"assert",)"
      R"("evidence":"compile"},{"op":"aten::mm","dtypes":["bf16","bf16"],"device":"cuda"}])";
  const std::string bare = R"([{"op":"aten::mm"}])";
  std::string text = kRun + "\n";
  for (int i = 0; i < 9; ++i) {
    text += R"({"type":"test","nodeid":"t.py::t)" + std::to_string(i) +
            R"(","outcome":"passed","ops":)" + (i % 2 ? bare : full) + "}\n";
  }
  struct Roles : Collected {
    std::vector<std::string> roles;
    void Test(const TraceTest& t) override {
      Collected::Test(t);
      std::string r;
      for (const auto& op : t.ops) r += std::string(op.role) + ",";
      roles.push_back(r);
    }
  } c;
  ReadTrace(text, "s.jsonl", c);
  ASSERT_EQ(c.tests.size(), 9u);
  for (int i = 0; i < 9; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(c.tests[i].nodeid, "t.py::t" + std::to_string(i));
    const std::vector<std::string> full_ops = {"aten::add|Tensor|compile|cpu|,float32|2",
                                               "aten::mm||eager|cuda|,bfloat16,bfloat16|1"};
    const std::vector<std::string> bare_ops = {"aten::mm||eager|||1"};
    EXPECT_EQ(c.tests[i].ops, i % 2 ? bare_ops : full_ops);
    EXPECT_EQ(c.roles[i], i % 2 ? "test," : "assert,test,");
  }
  // A bad line in place and one at the end name their lines alike.
  std::string bad_middle = text;
  bad_middle.insert(bad_middle.find("\n") + 1, "{\"type\":\n");
  EXPECT_NE(ErrorOf(bad_middle).find("s.jsonl:2: corrupt record, not JSON"), std::string::npos);
  EXPECT_NE(ErrorOf(text + "{\"type\":\n").find("s.jsonl:11: corrupt record, not JSON"),
            std::string::npos);
}

TEST(TraceReader, BadRecordsNameFileAndLine) {
  EXPECT_NE(ErrorOf(kRun + "\nnot json\n{}\n").find("s.jsonl:2: corrupt record, not JSON"),
            std::string::npos);
  EXPECT_NE(ErrorOf(kRun + "\n[1]\n").find("s.jsonl:2: record is not a JSON object"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf(kRun + "\n{\"type\":\"bogus\"}\n").find("s.jsonl:2: unknown record type `bogus`"),
      std::string::npos);
  EXPECT_NE(ErrorOf("{\"type\":\"begin\",\"nodeid\":\"x\"}\n")
                .find("s.jsonl:1: `begin` record before the shard's `run` record"),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"type":"run","format":"other","version":1})"
                    "\n")
                .find("not a testmap trace (format `other`)"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf(kRun + "\n" +
              R"({"type":"test","nodeid":"a","outcome":"passed","ops":[{"op":"not an op"}]})" +
              "\n")
          .find("s.jsonl:2: `not an op` is not an operator name"),
      std::string::npos);
  EXPECT_NE(
      ErrorOf(kRun + "\n" +
              R"({"type":"test","nodeid":"a","outcome":"passed","duration":-1,"ops":[]})" + "\n")
          .find("s.jsonl:2: duration of a is negative (-1 s)"),
      std::string::npos);
  EXPECT_NE(
      ErrorOf(
          kRun + "\n" +
          R"({"type":"test","nodeid":"a","outcome":"passed","ops":[{"op":"aten::mm","evidence":"guess"}]})" +
          "\n")
          .find("unknown evidence `guess`"),
      std::string::npos);
  EXPECT_NE(ErrorOf("").find("empty trace shard"), std::string::npos);
}

TEST(TraceReader, CollectionRecordsAreReadAndBadOnesNameTheirLine) {
  struct Collections : TraceVisitor {
    std::vector<std::pair<double, double>> spans;
    std::vector<std::pair<std::string, int64_t>> files;
    void Collection(const TraceCollection& c) override {
      spans.emplace_back(c.start, c.end);
      for (auto [f, n] : c.files) files.emplace_back(std::string(f), n);
    }
  } c;
  ReadTrace(
      kRun + "\n" +
          R"({"type":"collection","start":10.5,"end":12,"files":{"a.py":3,"sub/b.py":0},"worker":"main"})" +
          "\n",
      "s.jsonl", c);
  EXPECT_EQ(c.spans, (std::vector<std::pair<double, double>>{{10.5, 12}}));
  EXPECT_EQ(c.files, (std::vector<std::pair<std::string, int64_t>>{{"a.py", 3}, {"sub/b.py", 0}}));
  auto error = [](const std::string& record) { return ErrorOf(kRun + "\n" + record + "\n"); };
  EXPECT_NE(error(R"({"type":"collection","end":1,"files":{}})")
                .find("s.jsonl:2: collection record without a numeric `start`"),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"collection","start":1,"files":{}})")
                .find("s.jsonl:2: collection record without a numeric `end`"),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"collection","start":1,"end":"x","files":{}})")
                .find("s.jsonl:2: `end` is not a number"),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"collection","start":1,"end":2,"files":[]})")
                .find("s.jsonl:2: `files` is not an object"),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"collection","start":1,"end":2})")
                .find("s.jsonl:2: collection record without a `files` object"),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"collection","start":5,"end":2,"files":{}})")
                .find("s.jsonl:2: collection `end` before its `start`"),
            std::string::npos);
  EXPECT_NE(error(R"({"type":"collection","start":0,"end":1e300,"files":{}})")
                .find("s.jsonl:2: duration of the collection is 1e+300 s, over the limit"),
            std::string::npos);
  for (const char* count : {"-1", "1.5", "\"3\"", "1e30"}) {
    EXPECT_NE(error(std::string(R"({"type":"collection","start":1,"end":2,"files":{"a.py":)") +
                    count + "}}")
                  .find("s.jsonl:2: the test count of a.py is not a count"),
              std::string::npos)
        << count;
  }
  EXPECT_NE(error(std::string(R"({"type":"collection","start":1,"end":2,"files":{"a)") + "\\u0000" +
                  R"(.py":1}})")
                .find("s.jsonl:2: "),
            std::string::npos);
  EXPECT_NE(ErrorOf(R"({"type":"collection","start":1,"end":2,"files":{}})"
                    "\n")
                .find("s.jsonl:1: `collection` record before the shard's `run` record"),
            std::string::npos);
}

// A node id, device or dtype that would split an index key or edge value
// (core/key_field.h) is refused where it is read, with its line: one such
// record once made every later query of the index fail.
TEST(TraceReader, RefusesFieldsThatWouldSplitKeys) {
  auto test = [](const std::string& nodeid, const std::string& op) {
    return kRun + "\n" + R"({"type":"test","nodeid":")" + nodeid +
           R"(","outcome":"passed","ops":[)" + op + "]}\n";
  };
  EXPECT_EQ(ErrorOf(test(R"(t.py::a\u0000b)", "")),
            "s.jsonl:2: node id `t.py::a\\x00b` holds the control character 0x00 at byte 7");
  EXPECT_EQ(ErrorOf(kRun + "\n" + R"({"type":"begin","nodeid":"t.py::a\nb"})" + "\n"),
            "s.jsonl:2: node id `t.py::a\\x0ab` holds the control character 0x0a at byte 7");
  EXPECT_EQ(ErrorOf(test("t.py::a", R"({"op":"aten::mm","device":"cpu\tx"})")),
            "s.jsonl:2: device `cpu\\x09x` holds the control character 0x09 at byte 3");
  EXPECT_EQ(ErrorOf(test("t.py::a", R"({"op":"aten::mm","dtypes":["my,dtype"]})")),
            "s.jsonl:2: dtype `my,dtype` holds a ',' at byte 2");
  EXPECT_EQ(ErrorOf(test(std::string(kMaxKeyFieldBytes + 1, 'x'), "")).substr(0, 30),
            "s.jsonl:2: node id `xxxxxxxxxx");
  // The same spellings as names elsewhere stay fine.
  EXPECT_EQ(
      Read(test("t.py::a[x-y]", R"({"op":"aten::mm","device":"privateuse1","dtypes":["f32"]})"))
          .tests.size(),
      1u);
}

// Durations past a week (or not finite) are an error at their line, never
// a test that vanishes from a plan or a total that overflows.
TEST(TraceReader, RefusesDurationsPastTheCeiling) {
  auto with = [](const std::string& duration) {
    return kRun + "\n" + R"({"type":"test","nodeid":"t.py::a","outcome":"passed","duration":)" +
           duration + R"(,"ops":[]})" + "\n";
  };
  EXPECT_EQ(Read(with("604800")).tests.at(0).duration, 604800.0);
  EXPECT_EQ(ErrorOf(with("1e20")),
            "s.jsonl:2: duration of t.py::a is 1e+20 s, over the limit of 604800 s (a week): not a "
            "test's duration");
  EXPECT_NE(ErrorOf(with("1e308")).find("s.jsonl:2: duration of t.py::a is 1e+308 s"),
            std::string::npos);
  EXPECT_NE(ErrorOf(with("1e400")).find("s.jsonl:2:"), std::string::npos);  // not a double
  EXPECT_NE(ErrorOf(with("\"1s\"")).find("s.jsonl:2: `duration` is not a number"),
            std::string::npos);
}

// JSON nested far deeper than any record is refused at its line without
// recursing into it (the first line of a file included).
TEST(TraceReader, RefusesDeepNestingWithoutRecursion) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_NE(ErrorOf(deep + "\n").find("s.jsonl:1: "), std::string::npos);
  EXPECT_NE(ErrorOf(kRun + "\n" + R"({"type":"test","nodeid":"a","x":)" + deep + "}\n")
                .find("s.jsonl:2: corrupt record, not JSON"),
            std::string::npos);
}

TEST(TraceFormat, ShardFileNames) {
  EXPECT_EQ(ShardFileName("gw3"), "trace-gw3.jsonl");
  EXPECT_TRUE(IsShardFileName("trace-main.jsonl"));
  EXPECT_FALSE(IsShardFileName("trace-.jsonl"));
  EXPECT_FALSE(IsShardFileName("torch-logs-main.log"));
  EXPECT_TRUE(LooksLikeTrace(kRun));
  EXPECT_FALSE(LooksLikeTrace(R"({"nodeid":"a.py::t","generic_id":"a.py::t"})"));
}

}  // namespace
}  // namespace testmap::core
