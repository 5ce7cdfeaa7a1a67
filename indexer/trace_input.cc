#include "indexer/trace_input.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>
#include <unordered_map>

#include "core/content_hash.h"
#include "core/trace_reader.h"

namespace testmap::indexer {

TracedEdge TraceInput::Edge(std::string_view packet, std::string_view overload,
                            std::string_view value, size_t observations) {
  std::string key;
  key.reserve(packet.size() + 1 + overload.size());
  key.append(packet).push_back('\0');
  key.append(overload);
  std::string_view op_key = strings.Intern(key);
  auto [at, fresh] = op_positions_.try_emplace(op_key.data(), op_keys.size());
  if (fresh) op_keys.push_back(op_key);
  return {op_key, strings.Intern(value), static_cast<uint32_t>(observations), at->second};
}

namespace {

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

  void Collection(const core::TraceCollection& c) override {
    // Kept in the run's record, where plan --index reads it back
    // (timings::TraceRunWall::Start) as the shard reader reads the record.
    auto rec = nlohmann::json::parse(input_.runs.back().record_json);
    nlohmann::json files = nlohmann::json::object();
    for (const auto& [file, tests] : c.files) files[std::string(file)] = tests;
    rec["collection"] = {{"start", c.start}, {"end", c.end}, {"files", std::move(files)}};
    input_.runs.back().record_json = rec.dump();
  }

  void Test(const core::TraceTest& t) override {
    TracedTest test;
    test.nodeid = t.nodeid;
    test.run_id = input_.runs.back().id;
    test.line = t.line;
    test.outcome_json = t.outcome_json;
    GroupEdges(t.ops, test.edges);
    input_.tests.push_back(std::move(test));
  }

  void Warning(const std::string& message) override { input_.warnings.push_back(message); }

 private:
  // One edge per operator overload: all its (evidence, device, dtypes). The
  // buffers are the builder's, reused from test to test.
  void GroupEdges(const std::vector<core::TraceOp>& ops, std::vector<TracedEdge>& edges) {
    order_.clear();
    for (const auto& op : ops) order_.push_back(&op);
    // The reader interns its names: the same views are the same operator,
    // found without comparing the names (most pairs compared are equal).
    auto identical = [](const core::TraceOp* a, const core::TraceOp* b) {
      auto view = [](std::string_view s) { return std::pair(s.data(), s.size()); };
      return view(a->packet) == view(b->packet) && view(a->overload) == view(b->overload);
    };
    auto same = [&](const core::TraceOp* a, const core::TraceOp* b) {
      return identical(a, b) || (a->packet == b->packet && a->overload == b->overload);
    };
    std::stable_sort(order_.begin(), order_.end(),
                     [&](const core::TraceOp* a, const core::TraceOp* b) {
                       return !identical(a, b) &&
                              std::tie(a->packet, a->overload) < std::tie(b->packet, b->overload);
                     });
    size_t groups = 0;
    for (size_t i = 0; i < order_.size(); ++i) groups += i == 0 || !same(order_[i], order_[i - 1]);
    edges.reserve(groups);
    for (size_t i = 0; i < order_.size();) {
      group_.clear();
      size_t j = i;
      for (; j < order_.size() && same(order_[j], order_[i]); ++j) group_.push_back(order_[j]);
      EncodeEdgeInto(group_, value_);
      // The reader's names are interned too: the same operator comes with
      // the same packet view, so its key is built once.
      const core::TraceOp& op = *order_[i];
      auto [known, fresh] = op_edges_.try_emplace(op.packet.data());
      if (fresh || known->second.packet() != op.packet || known->second.overload() != op.overload)
        known->second = input_.Edge(op.packet, op.overload, "", 0);
      TracedEdge edge = known->second;
      edge.value = input_.strings.Intern(value_);
      edge.observations = static_cast<uint32_t>(group_.size());
      edges.push_back(edge);
      i = j;
    }
  }

  TraceInput& input_;
  std::vector<const core::TraceOp*> order_, group_;
  std::string value_;
  std::unordered_map<const char*, TracedEdge> op_edges_;  // by the reader's packet view
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
