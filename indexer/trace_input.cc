#include "indexer/trace_input.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/content_hash.h"
#include "core/trace_reader.h"

namespace testmap::indexer {
namespace {

// One edge per operator overload: all its (evidence, device, dtypes).
std::vector<TracedEdge> GroupEdges(const std::vector<core::TraceOp>& ops) {
  std::vector<const core::TraceOp*> order;
  for (const auto& op : ops) order.push_back(&op);
  std::stable_sort(order.begin(), order.end(), [](const core::TraceOp* a, const core::TraceOp* b) {
    return std::tie(a->packet, a->overload) < std::tie(b->packet, b->overload);
  });
  std::vector<TracedEdge> edges;
  std::vector<const core::TraceOp*> group;
  for (size_t i = 0; i < order.size();) {
    group.clear();
    size_t j = i;
    for (; j < order.size() && order[j]->packet == order[i]->packet &&
           order[j]->overload == order[i]->overload;
         ++j) {
      group.push_back(order[j]);
    }
    edges.push_back({std::string(order[i]->packet), std::string(order[i]->overload),
                     EncodeEdgeOf(group), group.size()});
    i = j;
  }
  return edges;
}

class TraceInputBuilder : public core::TraceVisitor {
 public:
  explicit TraceInputBuilder(TraceInput& input) : input_(input) {}

  void Run(const core::TraceRun& run) override {
    // Rare and small: kept whole as run metadata. The id hashes the line,
    // so the same shard ingested twice yields the same keys.
    auto rec = nlohmann::json::parse(run.record);
    rec["source"] = input_.path;
    input_.runs.push_back({core::ShortHexDigest(run.record), rec.dump()});
  }

  void Test(const core::TraceTest& t) override {
    TracedTest test;
    test.nodeid = t.nodeid;
    test.run_id = input_.runs.back().id;
    test.line = t.line;
    test.outcome_json = t.outcome_json;
    test.edges = GroupEdges(t.ops);
    input_.tests.push_back(std::move(test));
  }

  void Warning(const std::string& message) override { input_.warnings.push_back(message); }

 private:
  TraceInput& input_;
};

}  // namespace

TraceInput ParseTrace(const std::string& text, const std::string& path) {
  TraceInput input;
  input.path = path;
  TraceInputBuilder builder(input);
  core::ReadTrace(text, path, builder);
  return input;
}

}  // namespace testmap::indexer
