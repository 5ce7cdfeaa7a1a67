// A class of thousands of tests scans in time linear in its tests. Each
// shape below was quadratic somewhere (docs/reliability.md): tree-sitter's
// included ranges and child walks by index (a unittest class), erasing a
// generic test from its class's member order (instantiate_device_type_tests,
// instantiate_parametrized_tests), a decorator's names looked up among all
// the class's members (parametrize), the names of a pytest class found
// again in a list. Each shape is scanned with N and 4N tests: linear, 4N
// takes about 4 times as long; the code each fix replaced took 7 to 12
// times as long.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

#include "analyzers/python/file_scanner.h"
#include "analyzers/python/python_parser.h"

namespace testmap::python {
namespace {

constexpr int kTests = 8000;
constexpr double kMostRatio = 7.0;

// A file of `n` tests of one shape.
using Shape = std::function<std::string(int n)>;

std::string UnittestClass(int n) {
  std::string s = "import unittest\n\nclass TestBig(unittest.TestCase):\n";
  for (int i = 0; i < n; ++i)
    s += "    def test_m" + std::to_string(i) + "(self):\n        x = " + std::to_string(i) +
         "\n        self.assertEqual(x, 1)\n\n";
  return s;
}

std::string DeviceTypeClass(int n) {
  std::string s =
      "from torch.testing._internal.common_device_type import instantiate_device_type_tests\n"
      "from torch.testing._internal.common_utils import TestCase\n\nclass TestBig(TestCase):\n";
  for (int i = 0; i < n; ++i)
    s += "    def test_m" + std::to_string(i) + "(self, device):\n        pass\n\n";
  return s + "instantiate_device_type_tests(TestBig, globals())\n";
}

std::string ParametrizedClass(int n) {
  std::string s =
      "from torch.testing._internal.common_utils import (TestCase,\n"
      "    instantiate_parametrized_tests, parametrize)\n\nclass TestBig(TestCase):\n";
  for (int i = 0; i < n; ++i)
    s += "    @parametrize('x', [1, 2])\n    def test_m" + std::to_string(i) +
         "(self, x):\n        pass\n\n";
  return s + "instantiate_parametrized_tests(TestBig)\n";
}

std::string PytestClass(int n) {
  std::string s = "class TestBig:\n";
  for (int i = 0; i < n; ++i)
    s += "    def test_m" + std::to_string(i) + "(self):\n        pass\n\n";
  return s;
}

// Seconds to scan `source`; `tests` gets how many tests it found.
double ScanSeconds(const std::string& source, size_t* tests) {
  auto parser = NewPythonParser();
  auto start = std::chrono::steady_clock::now();
  FileScan scan = ScanPythonSource(
      parser.get(), "test_big.py", source, [] { return nullptr; }, CollectOptions{});
  std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  *tests = scan.tests.size();
  return took.count();
}

void ExpectLinear(const Shape& shape, size_t tests_per_def) {
  size_t small_tests = 0, large_tests = 0;
  double small = ScanSeconds(shape(kTests), &small_tests);
  // The larger scan's best of two: a pause of the machine must not read as
  // growth.
  double large = ScanSeconds(shape(4 * kTests), &large_tests);
  large = std::min(large, ScanSeconds(shape(4 * kTests), &large_tests));
  EXPECT_EQ(small_tests, kTests * tests_per_def);
  EXPECT_EQ(large_tests, 4 * kTests * tests_per_def);
  EXPECT_LT(large / small, kMostRatio)
      << small << " s for " << kTests << " tests, " << large << " s for " << 4 * kTests;
}

TEST(ScanScale, AUnittestClassOfThousandsOfMethodsIsLinear) { ExpectLinear(UnittestClass, 1); }

TEST(ScanScale, ADeviceTypeClassOfThousandsOfTestsIsLinear) { ExpectLinear(DeviceTypeClass, 1); }

TEST(ScanScale, AParametrizedClassOfThousandsOfTestsIsLinear) {
  ExpectLinear(ParametrizedClass, 2);
}

TEST(ScanScale, APytestClassOfThousandsOfTestsIsLinear) { ExpectLinear(PytestClass, 1); }

}  // namespace
}  // namespace testmap::python
