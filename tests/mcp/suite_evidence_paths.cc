// Prints the example suite's evidence (tests/support/suite_evidence.h) as
// one JSON object {suite, scan, trace}: the Python tests of the MCP server
// reuse the one cached scan and trace instead of tracing again.
#include <iostream>
#include <nlohmann/json.hpp>

#include "tests/support/suite_evidence.h"

int main() {
  try {
    const auto& ev = testmap::testing::ExampleSuiteEvidence();
    std::cout << nlohmann::json{{"suite", ev.suite}, {"scan", ev.scan}, {"trace", ev.trace}}.dump()
              << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "mcp_suite_evidence: " << e.what() << "\n";
    return 1;
  }
}
