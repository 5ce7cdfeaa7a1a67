// C entry points of libtestmap_torch_logs.so for the pytest plugin
// (tracer/python/testmap_trace/torch_logs_capture.py loads it with ctypes).
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "tracer/torch_logs_parser.h"

extern "C" {

// Parses `size` bytes of TORCH_LOGS text; returns malloc'd JSON
// {"ops": [{"op", "dtypes", "device", "count", "evidence": "compile",
// "graphs"}], "diagnostics": ["SOURCE:LINE: message", ...], "graphs": N}.
// `source` names the text in diagnostics. Free with testmap_torch_logs_free.
char* testmap_parse_torch_logs(const char* text, size_t size, const char* source) {
  auto result = testmap::tracer::ParseTorchLogs(std::string_view(text, size));
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : result.ops) {
    ops.push_back({{"op", op.op},
                   {"dtypes", op.dtypes},
                   {"device", op.device ? nlohmann::json(*op.device) : nlohmann::json(nullptr)},
                   {"count", op.count},
                   {"evidence", "compile"},
                   {"graphs", op.graphs}});
  }
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& d : result.diagnostics) {
    diagnostics.push_back(std::string(source ? source : "<torch logs>") + ":" +
                          std::to_string(d.line) + ": " + d.message);
  }
  std::string out =
      nlohmann::json{{"ops", ops}, {"diagnostics", diagnostics}, {"graphs", result.graphs}}.dump(
          -1, ' ', false, nlohmann::json::error_handler_t::replace);
  char* buffer = static_cast<char*>(std::malloc(out.size() + 1));
  std::memcpy(buffer, out.c_str(), out.size() + 1);
  return buffer;
}

void testmap_torch_logs_free(char* text) { std::free(text); }

}  // extern "C"
