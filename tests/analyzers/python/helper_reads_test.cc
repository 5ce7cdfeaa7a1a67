// Which helpers of its class a test's `content.setup` covers (docs/diff.md):
// the methods its body reads as `self.NAME` or `cls.NAME`, and the ones
// those read, one level more; a word that merely contains the name, or a
// name read by no one the test reads, does not count. Checked by changing
// each helper and seeing which tests' setup changes.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "analyzers/python/file_scanner.h"
#include "analyzers/python/python_parser.h"

namespace testmap::python {
namespace {

// test name -> content.setup, for the file with helper `changed` edited.
std::map<std::string, std::string> Setups(const std::string& changed) {
  auto body = [&](const std::string& helper) {
    return helper == changed ? "        return 2\n" : "        return 1\n";
  };
  std::string source = std::string(
                           "import unittest\n"
                           "class TestHelpers(unittest.TestCase):\n"
                           "    def direct(self):\n") +
                       body("direct") + "    def via_other(self):\n" + body("via_other") +
                       "    def calls_via_other(self):\n"
                       "        return self.via_other()\n" +
                       "    def unused(self):\n" + body("unused") +
                       "    def h\xc3\xa9lper(self):\n" + body("h\xc3\xa9lper") +
                       "    @classmethod\n"
                       "    def by_cls(cls):\n" +
                       body("by_cls") +
                       "    def test_direct(self):\n"
                       "        self.direct()\n"
                       "    def test_indirect(self):\n"
                       "        self.calls_via_other()\n"
                       "    def test_prefix_only(self):\n"
                       "        self.directly = myself.direct\n"
                       "    def test_unicode(self):\n"
                       "        self.h\xc3\xa9lper()\n"
                       "    def test_cls(self):\n"
                       "        type(self).by_cls()\n"
                       "        cls.by_cls()\n";
  auto parser = NewPythonParser();
  FileScan scan = ScanPythonSource(
      parser.get(), "test_helpers.py", source, [] { return nullptr; }, CollectOptions{});
  std::map<std::string, std::string> out;
  for (const TestRecord& t : scan.tests) out[t.method] = t.content.setup;
  return out;
}

TEST(HelperReads, ATestCoversTheHelpersItReadsAndTheirsOneLevelOn) {
  std::map<std::string, std::string> base = Setups("");
  ASSERT_EQ(base.size(), 5u);
  // Which tests' setup changes when each helper changes.
  std::map<std::string, std::set<std::string>> want = {
      {"direct", {"test_direct"}},         {"via_other", {"test_indirect"}}, {"unused", {}},
      {"h\xc3\xa9lper", {"test_unicode"}}, {"by_cls", {"test_cls"}},
  };
  for (const auto& [helper, tests] : want) {
    std::map<std::string, std::string> now = Setups(helper);
    std::set<std::string> changed;
    for (const auto& [test, setup] : now)
      if (setup != base.at(test)) changed.insert(test);
    EXPECT_EQ(changed, tests) << "helper " << helper;
  }
}

}  // namespace
}  // namespace testmap::python
