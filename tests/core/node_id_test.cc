#include "core/node_id.h"

#include <gtest/gtest.h>

namespace testmap::core {
namespace {

TEST(NodeId, Splits) {
  auto p = NodeId::Parse("a/test_x.py::TestA::test_b[1::2]");
  EXPECT_EQ(p.path, "a/test_x.py");
  EXPECT_EQ(p.cls, "TestA");
  EXPECT_EQ(p.name, "test_b[1::2]");
  auto f = NodeId::Parse("test_x.py::test_f");
  EXPECT_EQ(f.cls, "");
  EXPECT_EQ(f.name, "test_f");
  auto nested = NodeId::Parse("t.py::A::B::test");
  EXPECT_EQ(nested.cls, "A::B");
  auto file = NodeId::Parse("inductor/test_x");
  EXPECT_EQ(file.path, "inductor/test_x");
  EXPECT_EQ(file.name, "");
}

TEST(NodeId, FileKey) {
  EXPECT_EQ(FileKey("inductor/test_x.py"), "inductor/test_x");
  EXPECT_EQ(FileKey("test_nn"), "test_nn");
}

// Every way PyTorch's sources spell one test file has one identity.
TEST(NodeId, TestFileIdentityJoinsEverySpelling) {
  for (const char* spelling : {"test/inductor/test_x.py", "inductor/test_x.py", "inductor/test_x",
                               "test/inductor/test_x", "./test/inductor/test_x.py"}) {
    EXPECT_EQ(TestFileIdentity(spelling), "inductor/test_x") << spelling;
  }
  EXPECT_EQ(TestFileIdentity("test_nn.py"), "test_nn");
  EXPECT_EQ(TestFileIdentity("test/test_*.py"), "test_*");
  // A folder named like PyTorch's is only stripped at the start.
  EXPECT_EQ(TestFileIdentity("tools/test/test_y.py"), "tools/test/test_y");
  EXPECT_EQ(FileKeyAliases("test/inductor/test_x"),
            (std::vector<std::string>{"test/inductor/test_x", "inductor/test_x"}));
  EXPECT_EQ(FileKeyAliases("test_nn"), (std::vector<std::string>{"test_nn"}));
  EXPECT_EQ(JUnitModule("test/inductor/test_x.py"), "test.inductor.test_x");
}

TEST(NodeId, GuessedGenericIdStripsDeviceDtypeAndParams) {
  EXPECT_EQ(GuessGenericId("test_ops.py::TestCommonCPU::test_out_add_cpu_float32"),
            "test_ops.py::TestCommon::test_out_add");
  EXPECT_EQ(GuessGenericId("test_ops.py::TestCommonCUDA::test_out_add_cuda_float64"),
            "test_ops.py::TestCommon::test_out_add");
  EXPECT_EQ(GuessGenericId("test_view_ops.py::TestViewOpsCPU::test_contiguous_self_cpu"),
            "test_view_ops.py::TestViewOps::test_contiguous_self");
  EXPECT_EQ(GuessGenericId("test_x.py::TestA::test_mm_cpu_float16_bfloat16"),
            "test_x.py::TestA::test_mm");
  EXPECT_EQ(GuessGenericId("test_x.py::test_p[3-True]"), "test_x.py::::test_p");
  EXPECT_EQ(GuessGenericId("test_x.py::TestOpenReg::test_y_openreg"),
            "test_x.py::TestOpenReg::test_y");
}

}  // namespace
}  // namespace testmap::core
