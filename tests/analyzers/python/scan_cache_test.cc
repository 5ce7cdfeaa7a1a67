#include "analyzers/python/scan_cache.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "tests/support/temp_dir.h"

namespace testmap::python {
namespace {

FileScan Sample(const std::string& path) {
  FileScan s;
  s.path = path;
  TestRecord t;
  t.nodeid = path + "::TestXCPU::test_a_cpu_float32";
  t.generic_id = path + "::TestX::test_a";
  t.cls = "TestXCPU";
  t.method = "test_a_cpu_float32";
  t.kind = "device_type";
  t.line_start = 3;
  t.line_end = 9;
  t.params.device = "cpu";
  t.params.dtypes = {"float32"};
  t.params.training = false;
  t.params.values = {{"x", "1"}};
  t.decorators = {"dtypes(torch.float)"};
  t.source_hash = "abc";
  s.tests.push_back(t);
  s.diagnostics.push_back({Diagnostic::Severity::kWarning, 4, "note"});
  return s;
}

TEST(ScanCacheEncoding, RoundTripsUnderAnotherPath) {
  std::string bytes = EncodeFileScan(Sample("a/test_x.py"));
  FileScan out;
  ASSERT_TRUE(DecodeFileScan(bytes, "b/test_y.py", &out));
  ASSERT_EQ(out.tests.size(), 1u);
  EXPECT_EQ(out.tests[0].nodeid, "b/test_y.py::TestXCPU::test_a_cpu_float32");
  EXPECT_EQ(out.tests[0].generic_id, "b/test_y.py::TestX::test_a");
  EXPECT_EQ(out.tests[0].params.training, std::optional<bool>(false));
  EXPECT_EQ(out.tests[0].params.values[0].second, "1");
  EXPECT_EQ(out.diagnostics[0].line, 4);
}

TEST(ScanCacheEncoding, RejectsTruncatedBytes) {
  std::string bytes = EncodeFileScan(Sample("t.py"));
  FileScan out;
  for (size_t n : {size_t{0}, size_t{3}, bytes.size() / 2, bytes.size() - 1})
    EXPECT_FALSE(DecodeFileScan(bytes.substr(0, n), "t.py", &out)) << n;
}

// Every field of a record, as text, for comparing records whole.
std::string Fields(const TestRecord& t) {
  std::string s = t.nodeid + "|" + t.generic_id + "|" + t.cls + "|" + t.method + "|" +
                  t.generic_class + "|" + t.generic_method + "|" + t.kind + "|" +
                  std::to_string(t.line_start) + "-" + std::to_string(t.line_end) + "|" +
                  t.params.device + "|" + t.params.op + "|" + t.params.op_variant + "|" +
                  t.params.module + "|" +
                  (t.params.training ? (*t.params.training ? "train" : "eval") : "-") + "|" +
                  t.source_hash + "|" + t.content.body + "|" + t.content.decorators + "|" +
                  t.content.setup + "|" + t.content.entry + "|" + t.content.dtypes;
  for (const auto* v : {&t.params.dtypes, &t.decorators, &t.skips}) {
    s += "|";
    for (const auto& x : *v) s += x + ",";
  }
  for (const auto& [k, v] : t.params.values) s += "|" + k + "=" + v;
  return s;
}

// `bytes`, the entry of `s` (whose path is "a/test_x.py"), read back for
// "b/test_y.py": every record whole, ids under the new path.
void ExpectReadBackUnderAnotherPath(const FileScan& s, const std::string& bytes) {
  FileScan out;
  ASSERT_TRUE(DecodeFileScan(bytes, "b/test_y.py", &out));
  ASSERT_EQ(out.tests.size(), s.tests.size());
  for (size_t i = 0; i < s.tests.size(); ++i) {
    TestRecord want = s.tests[i];
    want.nodeid.replace(0, 11, "b/test_y.py");
    want.generic_id.replace(0, 11, "b/test_y.py");
    EXPECT_EQ(Fields(out.tests[i]), Fields(want)) << i;
  }
}

TEST(ScanCacheEncoding, InstancesOfOneGenericTestRoundTripAndAreWrittenOnce) {
  // An @ops test's instances share most fields; some differ from one
  // record to the next, some come back after a change, and a node id may
  // repeat (pytest collects both).
  FileScan s = Sample("a/test_x.py");
  s.tests[0].content.body = std::string(200, 'b');
  for (int i = 1; i < 500; ++i) {
    TestRecord t = s.tests[0];
    t.method = "test_a_op" + std::to_string(i % 7) + "_cpu_float32";
    t.nodeid = "a/test_x.py::TestXCPU::" + t.method;
    t.params.op = "op" + std::to_string(i % 7);
    t.params.dtypes = {i % 3 ? "float32" : "int64"};
    if (i % 50 == 0) t.generic_id = "a/test_x.py::TestX::test_b";
    if (i % 90 == 0) t.params.training.reset();
    if (i % 60 == 0) t.params.values.clear();
    s.tests.push_back(t);
  }
  s.tests.push_back(s.tests.back());  // the same id twice
  std::string bytes = EncodeFileScan(s);
  ExpectReadBackUnderAnotherPath(s, bytes);
  // The 200-byte body is written once, not 501 times.
  EXPECT_LT(bytes.size(), 501 * 200u) << bytes.size();
}

// Ids joined from their class and method, as the collector makes them, are
// written as "derived"; ids that are not (a generic id without its class
// and method, as in Sample) are written out; both read back whole.
TEST(ScanCacheEncoding, IdsMadeOfTheirClassAndMethodAreDerived) {
  FileScan s;
  s.path = "a/test_x.py";
  for (int i = 0; i < 300; ++i) {
    TestRecord t;
    t.cls = i % 2 ? "TestXCPU" : "";  // pytest functions have no class
    t.method = "test_a_op" + std::to_string(i) + "_cpu_float32";
    t.nodeid = s.path + (t.cls.empty() ? "" : "::" + t.cls) + "::" + t.method;
    t.generic_class = t.cls.empty() ? "" : "TestX";
    t.generic_method = "test_a";
    t.generic_id = s.path + (t.cls.empty() ? "" : "::TestX") + "::test_a";
    if (i == 7) t.nodeid = s.path + "::Other::" + t.method;  // not derivable
    s.tests.push_back(t);
  }
  std::string bytes = EncodeFileScan(s);
  ExpectReadBackUnderAnotherPath(s, bytes);
  // Each record: its method (about 25 bytes) and a byte for each other
  // field; the node id (another 35-45 bytes) is not written again.
  EXPECT_LT(bytes.size(), 300 * 60u) << bytes.size();
}

// Bytes that are not an entry never crash the reader (run under ASan in CI).
TEST(ScanCacheEncoding, ArbitraryDamageIsAMissOrARecordNeverACrash) {
  FileScan s = Sample("t.py");
  s.tests.push_back(s.tests[0]);
  s.tests.back().method = "test_b";
  const std::string bytes = EncodeFileScan(s);
  uint64_t seed = 88172645463325252ull;
  int decoded = 0, missed = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string damaged = bytes;
    for (int k = 0; k < 1 + round % 4; ++k) {
      seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
      damaged[seed % damaged.size()] = static_cast<char>(seed >> 32);
    }
    if (round % 5 == 0) damaged.resize(seed % damaged.size());
    FileScan out;
    if (DecodeFileScan(damaged, "t.py", &out)) {
      ++decoded;  // a damaged string's bytes: records, as many as the bytes can hold
      EXPECT_LE(out.tests.size() * 20, damaged.size());
    } else {
      ++missed;
    }
  }
  EXPECT_GT(decoded, 0);
  EXPECT_GT(missed, 1000);
}

TEST(ScanCacheEncoding, AMalformedEntryIsAMissNeverAHugeAllocation) {
  std::string bytes = EncodeFileScan(Sample("t.py"));
  FileScan out;
  // The test count (after version, flags, one diagnostic of 4 + 4 + 4 + 4
  // bytes) set to 4 billion.
  std::string huge = bytes;
  const size_t count_at = 12 + 16;
  ASSERT_LT(count_at + 4, huge.size());
  for (int i = 0; i < 4; ++i) huge[count_at + i] = '\xfe';
  EXPECT_FALSE(DecodeFileScan(huge, "t.py", &out));
  // The first record's first field (its class) "as in the previous record".
  std::string first_same = bytes;
  first_same[count_at + 4] = '\0';
  EXPECT_FALSE(DecodeFileScan(first_same, "t.py", &out));
  // A field's length as a varint of eleven bytes.
  std::string overlong = bytes;
  for (int i = 0; i < 11; ++i) overlong.insert(count_at + 4, 1, '\x80');
  EXPECT_FALSE(DecodeFileScan(overlong, "t.py", &out));
}

TEST(ScanCache, PersistsAcrossOpens) {
  testing::TempDir dir;
  core::Hash128 content = core::ContentHash("x"), context = core::ContentHash("ctx");
  std::string err;
  {
    auto cache = ScanCache::Open(dir.path().string(), &err);
    ASSERT_TRUE(cache) << err;
    cache->Put(content, context, Sample("t.py"));
    cache->Flush();
  }
  auto cache = ScanCache::Open(dir.path().string(), &err);
  ASSERT_TRUE(cache) << err;
  auto hit = cache->Get(content, context, "u.py");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->tests[0].nodeid, "u.py::TestXCPU::test_a_cpu_float32");
  EXPECT_FALSE(cache->Get(content, core::ContentHash("other"), "u.py"));
}

TEST(ScanCache, AnEntryServesTheSameScanThatPutIt) {
  // Files with the same bytes in one scan: the second is read from what the
  // first put, before any flush, and says it is the first's result.
  testing::TempDir dir;
  core::Hash128 content = core::ContentHash("x"), context = core::ContentHash("ctx");
  std::string err;
  auto cache = ScanCache::Open(dir.path().string(), &err);
  ASSERT_TRUE(cache) << err;
  EXPECT_FALSE(cache->Get(content, context, "a.py"));
  cache->Put(content, context, Sample("a.py"));
  auto hit = cache->Get(content, context, "b/a.py");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->tests[0].nodeid, "b/a.py::TestXCPU::test_a_cpu_float32");
  EXPECT_EQ(hit->diagnostics.at(0).message, "note");
  // A second Put of the key keeps the first result (it is not re-encoded).
  FileScan other = Sample("c.py");
  other.tests[0].method = "changed";
  cache->Put(content, context, other);
  EXPECT_EQ(cache->Get(content, context, "a.py")->tests[0].method, "test_a_cpu_float32");
}

TEST(ScanCache, PutsFromManyThreadsAllLand) {
  testing::TempDir dir;
  core::Hash128 context = core::ContentHash("ctx");
  std::string err;
  {
    auto cache = ScanCache::Open(dir.path().string(), &err);
    ASSERT_TRUE(cache) << err;
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&, t] {
        for (int i = 0; i < 200; ++i) {
          std::string name = std::to_string(t) + "_" + std::to_string(i);
          cache->Put(core::ContentHash(name), context, Sample(name + ".py"));
        }
      });
    for (auto& th : threads) th.join();
    cache->Flush();
  }
  auto cache = ScanCache::Open(dir.path().string(), &err);
  ASSERT_TRUE(cache) << err;
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < 200; ++i) {
      std::string name = std::to_string(t) + "_" + std::to_string(i);
      auto hit = cache->Get(core::ContentHash(name), context, "x.py");
      ASSERT_TRUE(hit) << name;
      EXPECT_EQ(hit->tests.size(), 1u);
    }
}

}  // namespace
}  // namespace testmap::python
