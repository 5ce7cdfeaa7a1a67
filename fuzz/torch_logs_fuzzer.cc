// TORCH_LOGS text (aot_graphs, post_grad_graphs, output_code) through the
// parser of `testmap logs parse` and `ingest --test`; it reports problems
// as diagnostics and never throws.
#include "fuzz/fuzz_input.h"
#include "tracer/torch_logs_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = testmap::fuzz::Input(data, size);
  auto result = testmap::tracer::ParseTorchLogs(text);
  (void)result;
  return 0;
}
