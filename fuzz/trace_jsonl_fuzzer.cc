// Trace shards through the one trace reader (core/trace_reader.h), as
// ingest, plan and `testmap trace` read them.
#include "core/errors.h"
#include "core/trace_reader.h"
#include "fuzz/fuzz_input.h"

namespace {

// Touches every view, so that a dangling one is an ASan report.
class Visitor : public testmap::core::TraceVisitor {
 public:
  void Run(const testmap::core::TraceRun& run) override { bytes += run.record.size(); }
  void Test(const testmap::core::TraceTest& test) override {
    bytes += test.nodeid.size() + test.outcome.size() + test.outcome_json.size();
    for (const auto& op : test.ops) {
      bytes += op.packet.size() + op.overload.size() + op.device.size() + op.role.size();
      for (auto d : op.dtypes) bytes += d.size();
    }
  }
  size_t bytes = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = testmap::fuzz::Input(data, size);
  Visitor visitor;
  try {
    testmap::core::ReadTrace(text, "fuzz.jsonl", visitor);
  } catch (const testmap::core::InputError&) {
  }
  return 0;
}
