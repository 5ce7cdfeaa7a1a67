// One line of `testmap mcp`'s stdin through the JSON-RPC envelope reader
// (mcp/json_rpc.h): a message, or a BadMessage the server answers with.
#include "fuzz/fuzz_input.h"
#include "mcp/json_rpc.h"
#include "mcp/limits.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string line = testmap::fuzz::Input(data, size);
  if (line.size() > testmap::mcp::kMaxRequestBytes) return 0;  // the line reader drops these
  try {
    auto message = testmap::mcp::ParseMessage(line);
    // Answers echo the id and params back: serializing them must hold too.
    (void)testmap::mcp::ResultLine(message.id, message.params);
  } catch (const testmap::mcp::BadMessage& bad) {
    (void)testmap::mcp::ErrorLine(bad.id, bad.error);
  }
  return 0;
}
