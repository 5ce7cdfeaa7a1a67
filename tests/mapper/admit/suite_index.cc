#include "tests/mapper/admit/suite_index.h"

#include <stdexcept>

#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {

const std::string& SuiteIndex() {
  static const std::string index = [] {
    const SuiteEvidence& ev = ExampleSuiteEvidence();
    std::string dir = ScratchDir("suite-index") + "/index";
    auto r = Testmap({"ingest", "--index", dir, ev.scan, ev.trace});
    if (r.rc != 0) throw std::runtime_error("testmap ingest failed: " + r.err);
    return dir;
  }();
  return index;
}

const std::string& ToyDeviceScan() {
  static const std::string path = [] {
    auto scan = Testmap({"scan", ".", "--torch-python", TESTMAP_PYTHON, "--device",
                         "privateuse1:toy", "--format", "jsonl"},
                        ExampleSuiteEvidence().suite);
    if (scan.rc != 0) throw std::runtime_error("testmap scan --device failed: " + scan.err);
    return WriteTempFile("scan-toy.jsonl", scan.out);
  }();
  return path;
}

CommandResult TestmapWithTorch(std::vector<std::string> args, const std::string& cwd) {
  args.insert(args.end(), {"--torch-python", TESTMAP_PYTHON});
  return Testmap(args, cwd);
}

}  // namespace testmap::testing
