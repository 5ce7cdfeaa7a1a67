#include "analyzers/python/scan_cache.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace testmap::python
