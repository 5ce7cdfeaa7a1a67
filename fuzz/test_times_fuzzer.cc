// PyTorch's test-times.json (file- and class-level variants).
#include "core/errors.h"
#include "fuzz/fuzz_input.h"
#include "timings/pytorch_times_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = testmap::fuzz::Input(data, size);
  try {
    testmap::timings::ParseTestTimes(text, "test-times.json");
  } catch (const testmap::core::InputError&) {
  }
  return 0;
}
