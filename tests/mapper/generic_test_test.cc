#include "mapper/generic_test.h"

#include <gtest/gtest.h>

namespace testmap::mapper {
namespace {

TEST(GenericTest, StripsDeviceDtypeAndParams) {
  EXPECT_EQ(GenericTestKey("test_ops.py::TestCommonCPU::test_out_add_cpu_float32"),
            "test_ops.py::TestCommon::test_out_add");
  EXPECT_EQ(GenericTestKey("test_ops.py::TestCommonCUDA::test_out_add_cuda_float64"),
            "test_ops.py::TestCommon::test_out_add");
  EXPECT_EQ(GenericTestKey("test_view_ops.py::TestViewOpsCPU::test_contiguous_self_cpu"),
            "test_view_ops.py::TestViewOps::test_contiguous_self");
  EXPECT_EQ(GenericTestKey("test_x.py::TestA::test_mm_cpu_float16_bfloat16"),
            "test_x.py::TestA::test_mm");
  EXPECT_EQ(GenericTestKey("test_x.py::test_p[3-True]"), "test_x.py::::test_p");
  EXPECT_EQ(GenericTestKey("test_x.py::TestOpenReg::test_y_openreg"),
            "test_x.py::TestOpenReg::test_y");
}

}  // namespace
}  // namespace testmap::mapper
