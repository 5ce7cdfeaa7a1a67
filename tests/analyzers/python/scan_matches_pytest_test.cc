// The scan of examples/suite against what real pytest collects from it
// with real torch: the node ids of every file, and each item's generic
// test, source line and parameters, read from pytest's own items by
// collect_truth.py.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzers/python/tree_scanner.h"

namespace fs = std::filesystem;
namespace py = testmap::python;

namespace {

const std::string kSuite = std::string(TESTMAP_SOURCE_DIR) + "/examples/suite";

class ScanMatchesPytest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    fs::path tmp = fs::temp_directory_path() / ("testmap-scan-truth-" + std::to_string(getpid()));
    fs::create_directories(tmp);
    // Ground truth: real pytest collection in the suite's directory.
    std::string truth_file = (tmp / "truth.json").string();
    std::string cmd = "cd '" + kSuite + "' && '" + TESTMAP_PYTHON + "' '" + TESTMAP_SOURCE_DIR +
                      "/tests/analyzers/python/collect_truth.py' '" + truth_file + "' > '" +
                      (tmp / "pytest.log").string() + "' 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0)
        << "pytest collection failed; see " << tmp / "pytest.log";
    std::ifstream in(truth_file);
    truth_ = new nlohmann::json(nlohmann::json::parse(in));

    // The scan, with a fresh cache directory so the torch snapshot is taken
    // from the same Python.
    py::TreeScanOptions o;
    o.paths = {kSuite};
    o.rootdir = kSuite;
    o.torch_python = TESTMAP_PYTHON;
    o.cache_dir = (tmp / "cache").string();
    scan_ = new py::TreeScanResult(py::ScanTree(o));
    fs::remove_all(tmp);
  }
  static void TearDownTestSuite() {
    delete truth_;
    delete scan_;
  }
  static nlohmann::json* truth_;
  static py::TreeScanResult* scan_;
};

nlohmann::json* ScanMatchesPytest::truth_ = nullptr;
py::TreeScanResult* ScanMatchesPytest::scan_ = nullptr;

std::string FileOf(const std::string& nodeid) { return nodeid.substr(0, nodeid.find("::")); }

TEST_F(ScanMatchesPytest, NodeIdsOfEveryFileEqualPytestCollection) {
  std::map<std::string, std::set<std::string>> expected, actual;
  for (const auto& item : *truth_) expected[FileOf(item["nodeid"])].insert(item["nodeid"]);
  for (const auto& f : scan_->files) {
    EXPECT_FALSE(f.skipped) << f.path;
    for (const auto& d : f.diagnostics)
      ADD_FAILURE() << f.path << ":" << d.line << ": " << d.message;
    for (const auto& t : f.tests) actual[f.path].insert(t.nodeid);
  }
  // Every test file of the suite, including files pytest collects nothing from.
  for (const auto& e : fs::directory_iterator(kSuite)) {
    std::string name = e.path().filename().string();
    if (name.rfind("test_", 0) != 0 || e.path().extension() != ".py") continue;
    SCOPED_TRACE(name);
    std::vector<std::string> missing, extra;
    for (const auto& id : expected[name])
      if (!actual[name].count(id)) missing.push_back(id);
    for (const auto& id : actual[name])
      if (!expected[name].count(id)) extra.push_back(id);
    EXPECT_TRUE(missing.empty()) << "collected by pytest, not by scan: "
                                 << ::testing::PrintToString(missing);
    EXPECT_TRUE(extra.empty()) << "found by scan, not by pytest: "
                               << ::testing::PrintToString(extra);
  }
  EXPECT_GT(expected.size(), 5u);
}

TEST_F(ScanMatchesPytest, GenericTestSourceLineAndParametersMatchPytestItems) {
  std::map<std::string, const py::TestRecord*> by_id;
  for (const auto& f : scan_->files)
    for (const auto& t : f.tests) by_id[t.nodeid] = &t;
  int checked_dtypes = 0, checked_ops = 0, checked_modules = 0, checked_values = 0;
  for (const auto& item : *truth_) {
    std::string id = item["nodeid"];
    SCOPED_TRACE(id);
    auto it = by_id.find(id);
    if (it == by_id.end()) continue;  // reported by the node id test
    const py::TestRecord& t = *it->second;
    std::string qualname = item["qualname"];
    std::string function = item["function"];
    // A function made at import time (a nested def or lambda setattr'd
    // onto the class, or a def stored under another name) is one generic
    // test per attribute: its name is the attribute's, the prefix of the
    // collected name, not the def's own.
    bool made_at_import = qualname.find("<locals>") != std::string::npos ||
                          function == "<lambda>" || (t.kind == "unittest" && function != t.method);
    if (made_at_import) {
      EXPECT_EQ(t.method.rfind(t.generic_method, 0), 0u) << t.generic_method;
    } else {
      EXPECT_EQ(t.generic_method, function);
    }
    EXPECT_EQ(t.line_start, item["line"].get<int>());
    EXPECT_EQ(t.cls, item["cls"].get<std::string>());
    EXPECT_EQ(t.generic_id, FileOf(id) +
                                "::" + (t.generic_class.empty() ? "" : t.generic_class + "::") +
                                t.generic_method);
    if (!made_at_import && (t.kind == "device_type" || t.kind == "parametrized"))
      EXPECT_EQ(t.generic_class + "." + t.generic_method, qualname);
    const auto& p = item["params"];
    if (p.contains("dtype")) {
      EXPECT_EQ(t.params.dtypes, std::vector<std::string>{p["dtype"].get<std::string>()});
      ++checked_dtypes;
    } else if (p.contains("dtypes")) {
      EXPECT_EQ(t.params.dtypes, p["dtypes"].get<std::vector<std::string>>());
      ++checked_dtypes;
    } else {
      EXPECT_TRUE(t.params.dtypes.empty());
    }
    if (p.contains("op") && p["op"].is_object()) {
      EXPECT_EQ(t.params.op, p["op"]["name"].get<std::string>());
      EXPECT_EQ(t.params.op_variant, p["op"]["variant"].get<std::string>());
      ++checked_ops;
    }
    if (p.contains("module_info")) {
      EXPECT_EQ(t.params.module, p["module_info"]["name"].get<std::string>());
      ++checked_modules;
    }
    if (p.contains("training"))
      EXPECT_EQ(t.params.training, std::optional<bool>(p["training"].get<bool>()));
    if (p.contains("device")) EXPECT_EQ(t.params.device, p["device"].get<std::string>());
    for (const auto& [name, repr] : item["reprs"].items()) {
      if (name == "device" || name == "training") continue;
      bool found = false;
      for (const auto& [k, v] : t.params.values)
        if (k == name) {
          EXPECT_EQ(v, repr.get<std::string>()) << name;
          found = true;
        }
      EXPECT_TRUE(found) << "parameter " << name << " missing";
      ++checked_values;
    }
  }
  // The suite exercises every kind of parameter; make sure they were seen.
  EXPECT_GT(checked_dtypes, 50);
  EXPECT_GT(checked_ops, 20);
  EXPECT_GT(checked_modules, 3);
  EXPECT_GT(checked_values, 20);
}

}  // namespace
