#include "indexer/timings/nodeid_parts.h"

#include <gtest/gtest.h>

namespace testmap::indexer {
namespace {

TEST(NodeIdParts, Splits) {
  auto p = SplitNodeId("a/test_x.py::TestA::test_b[1::2]");
  EXPECT_EQ(p.path, "a/test_x.py");
  EXPECT_EQ(p.cls, "TestA");
  EXPECT_EQ(p.name, "test_b[1::2]");
  auto f = SplitNodeId("test_x.py::test_f");
  EXPECT_EQ(f.cls, "");
  EXPECT_EQ(f.name, "test_f");
  auto nested = SplitNodeId("t.py::A::B::test");
  EXPECT_EQ(nested.cls, "A::B");
  auto file = SplitNodeId("inductor/test_x");
  EXPECT_EQ(file.path, "inductor/test_x");
  EXPECT_EQ(file.name, "");
}

TEST(NodeIdParts, FileKey) {
  EXPECT_EQ(FileKey("inductor/test_x.py"), "inductor/test_x");
  EXPECT_EQ(FileKey("test_nn"), "test_nn");
}

}  // namespace
}  // namespace testmap::indexer
