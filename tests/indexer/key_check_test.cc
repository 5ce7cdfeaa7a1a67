// The key check every parsed input passes before ingest opens the index
// (indexer/key_check.h), on inputs parsed by the real readers.
#include "indexer/key_check.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "timings/durations_reader.h"

namespace testmap::indexer {
namespace {

std::string ErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(KeyCheck, ScanRecordsWithSeparatorBytesAreRefusedAtTheirLine) {
  std::string good =
      R"({"nodeid":"t.py::TestXCPU::test_a_cpu","generic_id":"t.py::TestX::test_a","params":{"device":"cpu","op":"add","dtypes":["float32"]}})";
  EXPECT_EQ(ErrorOf([&] { CheckScanKeys(ParseScan(good + "\n", "s.jsonl"), "s.jsonl"); }),
            "(accepted)");
  std::string nul = R"({"nodeid":"t.py::a\u0000","generic_id":"t.py::a"})";
  EXPECT_EQ(
      ErrorOf([&] { CheckScanKeys(ParseScan(good + "\n" + nul + "\n", "s.jsonl"), "s.jsonl"); }),
      "s.jsonl:2: node id `t.py::a\\x00` holds the control character 0x00 at byte 7");
  std::string generic = R"({"nodeid":"t.py::a","generic_id":"t.py::\u0001"})";
  EXPECT_NE(ErrorOf([&] {
              CheckScanKeys(ParseScan(generic + "\n", "s.jsonl"), "s.jsonl");
            }).find("s.jsonl:1: generic id"),
            std::string::npos);
  std::string dtype =
      R"({"nodeid":"t.py::a","generic_id":"t.py::a","params":{"device":"cpu","op":"add","dtypes":["x,y"]}})";
  EXPECT_EQ(ErrorOf([&] { CheckScanKeys(ParseScan(dtype + "\n", "s.jsonl"), "s.jsonl"); }),
            "s.jsonl:1: dtype `x,y` holds a ',' at byte 1");
  std::string bad_utf8 =
      "{\"nodeid\":\"t.py::a\",\"generic_id\":\"t.py::a\",\"params\":{\"device\":\"\xff\"}}";
  EXPECT_NE(ErrorOf([&] {
              CheckScanKeys(ParseScan(bad_utf8 + "\n", "s.jsonl"), "s.jsonl");
            }).find("s.jsonl:1:"),
            std::string::npos);
}

TEST(KeyCheck, TimingIdsAreCheckedWithTheirFileAndLine) {
  auto records =
      timings::ParseTestDurations("{\n\"t.py::a\": 1,\n\"t.py::b\\u0000\": 2\n}\n", "d.json");
  EXPECT_EQ(ErrorOf([&] { CheckTimingKeys(records); }),
            "d.json:3: timing id `t.py::b\\x00` holds the control character 0x00 at byte 7");
  records.pop_back();
  EXPECT_EQ(ErrorOf([&] { CheckTimingKeys(records); }), "(accepted)");
}

TEST(KeyCheck, TracedNodeIdsFromTheCommandLineAreChecked) {
  TraceInput trace;
  trace.path = "run.log";
  trace.tests.push_back({"t.py::a\nb", "r", "", {}, 0});
  EXPECT_EQ(ErrorOf([&] { CheckTraceKeys(trace); }),
            "run.log: node id `t.py::a\\x0ab` holds the control character 0x0a at byte 7");
  EXPECT_EQ(ErrorOf([] { CheckBackendName("open\treg"); }),
            "backend name `open\\x09reg` holds the control character 0x09 at byte 4");
  EXPECT_EQ(ErrorOf([] { CheckBackendName("openreg"); }), "(accepted)");
}

}  // namespace
}  // namespace testmap::indexer
