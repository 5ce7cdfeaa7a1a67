#include "indexer/torch_logs_input.h"

#include <map>
#include <nlohmann/json.hpp>

#include "core/content_hash.h"
#include "core/errors.h"
#include "core/op_names.h"
#include "core/trace_format.h"
#include "tracer/torch_logs_parser.h"

namespace testmap::indexer {

TraceInput ParseTorchLogsForTest(const std::string& text, const std::string& path,
                                 const std::string& test) {
  if (test.empty() || test.find_first_of(std::string("\0\n\r", 3)) != std::string::npos)
    throw core::InputError(path, 0, "--test needs a node id (no NUL or newline in it)");
  tracer::TorchLogsResult parsed = tracer::ParseTorchLogs(text);
  TraceInput input;
  input.path = path;
  for (const auto& d : parsed.diagnostics)
    input.warnings.push_back(path + ":" + std::to_string(d.line) + ": " + d.message);
  nlohmann::json run = {
      {"type", std::string(core::kRunRecord)},
      {"format", std::string(core::kTraceFormatName)},
      {"version", core::kTraceFormatVersion},
      {"worker", nullptr},
      {"metadata", {{"recorder", "torch_logs"}, {"test", test}, {"graphs", parsed.graphs}}},
      {"source", path}};
  input.runs.push_back({core::ShortHexDigest(text + std::string(1, '\0') + test), run.dump()});
  TracedTest traced;
  traced.nodeid = test;
  traced.run_id = input.runs.back().id;
  // One edge per operator overload, its (device, dtypes) observations as the
  // parser merged them over the log's graphs. The log says nothing of roles:
  // a graph compiled in a test is the test's own code.
  std::map<std::pair<std::string, std::string>, std::vector<EdgeTuple>> by_op;
  for (const auto& op : parsed.ops) {
    auto name = core::ParseOpName(op.op);
    if (!name) continue;  // the parser only returns operator names
    by_op[{name->Packet(), name->overload}].push_back(
        EdgeTuple{"compile", op.device.value_or(""), op.dtypes, op.count});
  }
  for (auto& [op, tuples] : by_op)
    traced.edges.push_back(input.Edge(op.first, op.second, EncodeEdge(tuples), tuples.size()));
  input.tests.push_back(std::move(traced));
  return input;
}

}  // namespace testmap::indexer
