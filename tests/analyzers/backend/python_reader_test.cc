// The Python reader on data/pycases, a package of registration idioms
// (helpers over packet lists with schema filters, decorator factories in
// loops, custom ops, Library definitions and fallbacks, f-string names, a
// module nothing imports), against the live dispatcher after importing it:
// every registration the scan is sure of is real, and every real one is
// found, either for sure or as an upper bound.
#include <gtest/gtest.h>

#include "analyzers/backend/backend_scan.h"
#include "tests/analyzers/backend/backend_truth.h"
#include "tests/support/temp_dir.h"

namespace tb = testmap::backend;
namespace bt = testmap::backend_test;
using testmap::testing::SourcePath;

namespace {

class PythonReader : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string cases = SourcePath("tests/analyzers/backend/data/pycases");
    tb::BackendScanOptions o;
    o.paths = {cases};
    o.torch_python = TESTMAP_PYTHON;
    o.cache_dir = tmp_.path().string();
    bt::SeedTorchSnapshot(o.cache_dir);
    scan_ = new tb::BackendScan(tb::ScanBackend(o));
    truth_ = new std::set<bt::Identity>(bt::DispatcherTruth("cases", cases));
  }
  static void TearDownTestSuite() {
    delete scan_;
    delete truth_;
  }
  static std::set<bt::Identity> Sure() {
    std::set<bt::Identity> ids;
    for (const auto& r : scan_->records)
      if (tb::InDispatcher(r.kind) && !r.upper_bound) ids.insert(bt::IdentityOf(r));
    return ids;
  }
  static std::set<bt::Identity> UpperBound() {
    std::set<bt::Identity> ids;
    for (const auto& r : scan_->records)
      if (r.upper_bound) ids.insert(bt::IdentityOf(r));
    return ids;
  }
  static testmap::testing::TempDir tmp_;
  static tb::BackendScan* scan_;
  static std::set<bt::Identity>* truth_;
};

testmap::testing::TempDir PythonReader::tmp_;

tb::BackendScan* PythonReader::scan_ = nullptr;
std::set<bt::Identity>* PythonReader::truth_ = nullptr;

TEST_F(PythonReader, ReadsEveryModule) {
  EXPECT_EQ(scan_->stats.python_modules, 6u);
  EXPECT_FALSE(scan_->partial());
  ASSERT_FALSE(truth_->empty());
}

TEST_F(PythonReader, WhatTheScanIsSureOfIsRegistered) {
  std::set<bt::Identity> extra;
  for (const auto& id : Sure())
    if (!truth_->count(id)) extra.insert(id);
  EXPECT_TRUE(extra.empty()) << "scanned, not in the dispatcher:" << bt::Describe(extra);
}

TEST_F(PythonReader, EveryRegistrationIsFoundSureOrAsUpperBound) {
  std::set<bt::Identity> sure = Sure(), upper = UpperBound(), missing;
  for (const auto& id : *truth_)
    if (!sure.count(id) && !upper.count(id)) missing.insert(id);
  EXPECT_TRUE(missing.empty()) << "in the dispatcher, not scanned:" << bt::Describe(missing);
}

TEST_F(PythonReader, FiltersItCannotEvaluateAndUnimportedModulesAreUpperBounds) {
  // _ENABLED.get(...) in helpers.py guards two registrations; orphan.py is
  // imported by nothing (so its sinh kernel is not in the dispatcher).
  EXPECT_EQ(UpperBound(),
            (std::set<bt::Identity>{{"aten::floor_divide", "PrivateUse1", "kernel"},
                                    {"aten::remainder.Tensor", "PrivateUse1", "kernel"},
                                    {"aten::sinh", "PrivateUse1", "kernel"}}));
  EXPECT_FALSE(truth_->count({"aten::sinh", "PrivateUse1", "kernel"}));
}

TEST_F(PythonReader, PacketsExpandThroughTheSchemaFilter) {
  // register_functional keeps tensor overloads without out= arguments that
  // torch does not decompose: fmod.Scalar and fmod.Tensor, not fmod.*_out.
  std::set<std::string> fmod;
  for (const auto& r : scan_->records)
    if (r.packet == "aten::fmod") fmod.insert(r.op);
  EXPECT_EQ(fmod, (std::set<std::string>{"aten::fmod.Scalar", "aten::fmod.Tensor"}));
  for (const auto& r : scan_->records)
    if (r.packet == "aten::fmod") EXPECT_EQ(r.file, "cases/listed.py") << r.op;
}

}  // namespace
