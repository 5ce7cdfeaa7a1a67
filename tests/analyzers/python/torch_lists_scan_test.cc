// `testmap scan` on OpInfo lists of torch's test modules other than
// common_methods_invocations (custom_op_db, hop_db, opinfo.definitions.*)
// and on filters that compare an Enum-valued OpInfo attribute
// (`op.ndimensional == SpectralFuncType.OneD`), against real pytest.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tests/support/command.h"
#include "tests/support/pytest_collect.h"
#include "tests/support/temp_dir.h"

namespace {

using testmap::testing::Lines;
using testmap::testing::PytestCollects;
using testmap::testing::TempDir;
using testmap::testing::Testmap;

// examples/torch_lists: spectral_funcs filtered by dimensionality with ==,
// !=, `in` and `is` (the Enum imported through common_methods_invocations
// and through opinfo.core), custom_op_db, hop_db and opinfo.definitions.
// linalg's own op_db, each as pytest collects them.
TEST(TorchListsScan, ListsOfOtherModulesAndEnumFiltersAreWhatPytestCollects) {
  EXPECT_EQ(testmap::testing::ExpectScanCollectsAsPytest("examples/torch_lists"), 97u);
}

// What the snapshot does not hold stays a warning and a partial answer: a
// filter on an Enum member's value, next to one on the member itself.
TEST(TorchListsScan, AnEnumFilterItCannotEvaluateIsAWarningNotAGuess) {
  TempDir d;
  d.Write("test_enum_filters.py",
          "from torch.testing._internal.common_device_type import (\n"
          "    OpDTypes, instantiate_device_type_tests, ops)\n"
          "from torch.testing._internal.common_methods_invocations import (\n"
          "    SpectralFuncType, spectral_funcs)\n"
          "from torch.testing._internal.common_utils import TestCase\n\n\n"
          "class TestKinds(TestCase):\n"
          "    @ops([op for op in spectral_funcs if op.ndimensional.value == 2],\n"
          "         dtypes=OpDTypes.none)\n"
          "    def test_by_value(self, device, op):\n        pass\n\n"
          "    @ops([op for op in spectral_funcs if op.ndimensional == SpectralFuncType.TwoD],\n"
          "         dtypes=OpDTypes.none)\n"
          "    def test_two_dims(self, device, op):\n        pass\n\n\n"
          "instantiate_device_type_tests(TestKinds, globals(), only_for='cpu')\n");
  std::set<std::string> collected = PytestCollects(d.path().string());
  ASSERT_GT(collected.size(), 4u);
  auto scan = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, d.path().string());
  EXPECT_EQ(scan.rc, 1) << scan.err;  // a partial answer
  EXPECT_NE(scan.err.find("test_enum_filters.py:9: warning: cannot evaluate op list `[op for op "
                          "in spectral_funcs if op.ndimensional.value == 2]`"),
            std::string::npos)
      << scan.err;
  // Exactly test_two_dims's tests: every one pytest has, none of test_by_value's.
  std::set<std::string> two_dims;
  for (const auto& id : collected)
    if (id.find("::test_two_dims_") != std::string::npos) two_dims.insert(id);
  ASSERT_FALSE(two_dims.empty());
  auto lines = Lines(scan.out);
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()), two_dims);
}

}  // namespace
