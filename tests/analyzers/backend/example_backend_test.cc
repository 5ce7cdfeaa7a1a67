// `testmap backend scan` and `dump` on examples/backend, the toy PrivateUse1
// backend built by this project, against the live dispatcher: for every
// dispatch key the scan finds exactly the (op, key, kind) registrations
// that importing the backend makes, as dispatcher_truth.py computes them in
// a fresh Python. One cold scan, one warm re-scan and one scan from the
// build's compile_commands.json are shared by all cases.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/analyzers/backend/backend_truth.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace bt = testmap::backend_test;
using testmap::testing::CommandResult;
using testmap::testing::Python;
using testmap::testing::ReadFile;
using testmap::testing::SourcePath;
using testmap::testing::Testmap;

namespace {

const std::map<std::string, std::string> kEnv{
    {"TOY_BACKEND_LIB_DIR", std::string(TESTMAP_BINARY_DIR) + "/lib"}};

std::string Example() { return SourcePath("examples/backend"); }

struct ScanRun {
  CommandResult result;
  nlohmann::json doc;
  double seconds = 0;
};

ScanRun Scan(const std::vector<std::string>& extra) {
  std::vector<std::string> args{"backend",      "scan",     Example(), "--torch-python",
                                TESTMAP_PYTHON, "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto start = std::chrono::steady_clock::now();
  ScanRun run;
  run.result = Testmap(args);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.doc = nlohmann::json::parse(run.result.out, nullptr, false);
  return run;
}

std::set<bt::Identity> InDispatcher(const nlohmann::json& doc) {
  std::set<bt::Identity> ids;
  if (!doc.is_object()) return ids;
  for (const auto& r : doc["records"])
    if (r["kind"] != "stub" && r["kind"] != "hook") ids.insert(bt::IdentityOf(r));
  return ids;
}

class ExampleBackend : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new testmap::testing::TempDir;
    std::string cache = (tmp_->path() / "cache").string();
    bt::SeedTorchSnapshot(cache);
    cold_ = new ScanRun(Scan({"--cache-dir", cache}));
    warm_ = new ScanRun(Scan({"--cache-dir", cache}));
    // Same cache: the compile commands' flags make other keys, so every
    // unit is read again, while torch's snapshot and probe are reused.
    from_build_ = new ScanRun(Scan({"-p", TESTMAP_BINARY_DIR, "--cache-dir", cache}));
    dump_ = new ScanRun;
    dump_->result = Testmap({"backend", "dump", "--torch-python", TESTMAP_PYTHON, "--python-path",
                             Example(), "--import", "toy_backend", "--format", "json"},
                            "", kEnv);
    dump_->doc = nlohmann::json::parse(dump_->result.out, nullptr, false);
    truth_ = new std::set<bt::Identity>(bt::DispatcherTruth("toy_backend", Example(), kEnv));
  }
  static void TearDownTestSuite() {
    delete cold_;
    delete warm_;
    delete from_build_;
    delete dump_;
    delete truth_;
    delete tmp_;
  }
  // The static records of the cold scan.
  static const nlohmann::json& Records() { return cold_->doc["records"]; }

  static testmap::testing::TempDir* tmp_;
  static ScanRun *cold_, *warm_, *from_build_, *dump_;
  static std::set<bt::Identity>* truth_;
};

testmap::testing::TempDir* ExampleBackend::tmp_ = nullptr;
ScanRun *ExampleBackend::cold_ = nullptr, *ExampleBackend::warm_ = nullptr,
        *ExampleBackend::from_build_ = nullptr, *ExampleBackend::dump_ = nullptr;
std::set<bt::Identity>* ExampleBackend::truth_ = nullptr;

void ExpectSameByKey(const std::set<bt::Identity>& got, const std::set<bt::Identity>& want,
                     const std::string& what) {
  std::map<std::string, std::pair<std::set<bt::Identity>, std::set<bt::Identity>>> by_key;
  for (const auto& id : got) by_key[std::get<1>(id)].first.insert(id);
  for (const auto& id : want) by_key[std::get<1>(id)].second.insert(id);
  for (const auto& [key, sets] : by_key) {
    std::set<bt::Identity> extra, missing;
    for (const auto& id : sets.first)
      if (!sets.second.count(id)) extra.insert(id);
    for (const auto& id : sets.second)
      if (!sets.first.count(id)) missing.insert(id);
    EXPECT_TRUE(extra.empty() && missing.empty())
        << "key " << (key.empty() ? "(definitions)" : key) << ": " << what
        << " only:" << bt::Describe(extra) << "\ndispatcher only:" << bt::Describe(missing);
  }
}

TEST_F(ExampleBackend, ScanReadsEveryFileAndExitsZero) {
  ASSERT_EQ(cold_->result.rc, 0) << cold_->result.err;
  ASSERT_TRUE(cold_->doc.is_object()) << cold_->result.out;
  EXPECT_EQ(cold_->doc["format"], "testmap-backend/1");
  EXPECT_EQ(cold_->doc["evidence"], "static");
  for (const auto& d : cold_->doc["diagnostics"]) EXPECT_NE(d["severity"], "error") << d.dump();
  // kernels.cpp and bindings.cpp name no registration API: never parsed.
  EXPECT_NE(cold_->result.err.find("9 C++ files (2 without registrations, 0 from the cache, "
                                   "7 read by Clang), 6 Python modules"),
            std::string::npos)
      << cold_->result.err;
}

TEST_F(ExampleBackend, ScanEqualsTheDispatcherForEveryKey) {
  ASSERT_GT(truth_->size(), 50u);
  ExpectSameByKey(InDispatcher(cold_->doc), *truth_, "scan");
}

TEST_F(ExampleBackend, DumpEqualsTheDispatcherForEveryKey) {
  ASSERT_EQ(dump_->result.rc, 0) << dump_->result.err;
  EXPECT_EQ(dump_->doc["evidence"], "runtime");
  ExpectSameByKey(InDispatcher(dump_->doc), *truth_, "dump");
}

TEST_F(ExampleBackend, ScanWithTheBuildsCompileCommandsFindsTheSame) {
  ASSERT_EQ(from_build_->result.rc, 0) << from_build_->result.err;
  ExpectSameByKey(InDispatcher(from_build_->doc), InDispatcher(cold_->doc), "-p scan");
  EXPECT_NE(from_build_->result.err.find("0 from the cache, 7 read by Clang"), std::string::npos)
      << from_build_->result.err;
}

TEST_F(ExampleBackend, WarmRescanServesEveryUnitFromTheCache) {
  ASSERT_EQ(warm_->result.rc, 0) << warm_->result.err;
  EXPECT_NE(warm_->result.err.find("7 from the cache, 0 read by Clang"), std::string::npos)
      << warm_->result.err;
  EXPECT_EQ(warm_->doc["records"], cold_->doc["records"]);
  std::cout << "cold scan " << cold_->seconds << " s, warm re-scan " << warm_->seconds << " s\n";
}

TEST_F(ExampleBackend, LookalikesAreReportedAsWhatTheyAre) {
  std::map<std::string, std::string> hooks;  // symbol -> mechanism
  std::vector<nlohmann::json> stubs;
  for (const auto& r : Records()) {
    std::string file = r["file"];
    if (r["kind"] == "hook") hooks[r["symbol"]] = r["mechanism"];
    if (r["kind"] == "stub") stubs.push_back(r);
    // The device runtime and the pybind11 module register no operator.
    if (file == "csrc/device.cpp" || file == "csrc/bindings.cpp" || file == "csrc/kernels.cpp")
      EXPECT_EQ(r["kind"], "hook") << r.dump();
  }
  EXPECT_EQ(hooks, (std::map<std::string, std::string>{
                       {"Allocator", "REGISTER_ALLOCATOR"},
                       {"BackendName", "rename_privateuse1_backend"},
                       {"DeviceGuardImpl", "C10_REGISTER_GUARD_IMPL"},
                       {"DeviceModule", "_register_device_module"},
                       {"GeneratedMethods", "generate_methods_for_privateuse1_backend"},
                       {"PrivateUse1HooksInterface", "RegisterPrivateUse1HooksInterface"}}));
  ASSERT_EQ(stubs.size(), 1u);
  EXPECT_EQ(stubs[0]["symbol"], "at::native::abs_stub");
  EXPECT_EQ(stubs[0]["dispatch_key"], "PrivateUse1");
  EXPECT_EQ(stubs[0]["mechanism"], "REGISTER_PRIVATEUSE1_DISPATCH");
  // What the hooks provide works: toy tensors exist and compute.
  auto r =
      Python({"-c", "import sys; sys.path.insert(0, '" + Example() +
                        "'); import torch, toy_backend\n"
                        "x = torch.ones(3, device='toy')\n"
                        "print((x + x).device, (x + x).cpu().tolist(), torch.toy.device_count())"},
             "", kEnv);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "toy:0 [2.0, 2.0, 2.0] 1\n");
}

TEST_F(ExampleBackend, MacroRegistrationsAreReadFromTheirExpansion) {
  std::map<std::string, std::set<std::string>> by_macro;
  for (const auto& r : Records())
    if (r.contains("macro")) by_macro[r["macro"]].insert(r["op"]);
  EXPECT_EQ(by_macro["KERNEL_PRIVATEUSEONE"],
            (std::set<std::string>{"aten::bmm", "aten::conv2d.padding", "aten::matmul", "aten::mm",
                                   "aten::pow.Tensor_Scalar", "aten::pow.Tensor_Tensor"}));
  EXPECT_EQ(by_macro["TOY_UNARY"], (std::set<std::string>{"aten::neg", "aten::reciprocal"}));
  EXPECT_EQ(by_macro["TOY_IMPL_OVERLOAD"], (std::set<std::string>{"aten::add.Tensor"}));
}

// The word a record's source line must show: the operator's name, else the
// stub, else what registers a fallback or hook.
std::string Expected(const nlohmann::json& r) {
  if (r["op"].is_string()) {
    std::string op = r["op"];
    op = op.substr(op.find("::") + 2);
    return op.substr(0, op.find('.'));
  }
  if (r["kind"] == "stub") {
    std::string s = r["symbol"];
    return s.substr(s.rfind(':') + 1);
  }
  if (r["kind"] == "hook") return r["mechanism"];
  return "fallback";
}

TEST_F(ExampleBackend, EveryRecordPointsAtTheLineThatRegisters) {
  std::map<std::string, std::vector<std::string>> files;  // file -> its lines
  for (const auto& r : Records()) {
    std::string file = r["file"];
    if (!files.count(file)) {
      std::ifstream in(Example() + "/" + file);
      for (std::string text; std::getline(in, text);) files[file].push_back(text);
    }
    int line = r["line"];
    ASSERT_TRUE(line >= 1 && line <= static_cast<int>(files[file].size())) << r.dump();
    const std::string& text = files[file][line - 1];
    EXPECT_NE(text.find(Expected(r)), std::string::npos)
        << file << ":" << line << " is `" << text << "`, for " << r.dump();
  }
}

}  // namespace
