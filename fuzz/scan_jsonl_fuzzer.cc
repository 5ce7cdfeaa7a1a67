// `testmap scan --format jsonl` output as ingest reads it: the scan reader
// and the key check every record passes before the index is opened.
#include "core/errors.h"
#include "fuzz/fuzz_input.h"
#include "indexer/key_check.h"
#include "indexer/scan_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text = testmap::fuzz::Input(data, size);
  std::vector<std::string> warnings;
  try {
    testmap::indexer::LooksLikeScan(text);
    auto tests = testmap::indexer::ParseScan(text, "fuzz.jsonl", &warnings);
    testmap::indexer::CheckScanKeys(tests, "fuzz.jsonl");
  } catch (const testmap::core::InputError&) {
  }
  return 0;
}
