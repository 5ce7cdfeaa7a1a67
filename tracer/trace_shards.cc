#include "tracer/trace_shards.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "core/read_file.h"
#include "core/trace_format.h"
#include "core/trace_reader.h"

namespace testmap::tracer {
namespace {

// Collects what the summary line says, and the crashed records to append.
class Finisher : public core::TraceVisitor {
 public:
  explicit Finisher(ShardSummary& summary) : summary_(summary) {}

  void Test(const core::TraceTest& t) override {
    std::string nodeid(t.nodeid);
    summary_.nodeids.push_back(nodeid);
    ++summary_.outcomes[std::string(t.outcome)];
    if (t.outcome == core::kCrashedOutcome) summary_.crashed.push_back(nodeid);
    for (const auto& op : t.ops) {
      std::string name =
          std::string(op.packet) + (op.overload.empty() ? "" : ".") + std::string(op.overload);
      std::string dtypes;
      for (auto d : op.dtypes) dtypes += std::string(d) + ",";
      auto key = std::make_tuple(name, dtypes, std::string(op.device));
      (op.evidence == "compile" ? compile_ : eager_).insert(key);
      ops_.insert(name);
    }
    if (t.unfinished) {
      unfinished_.push_back({{"type", std::string(core::kTestRecord)},
                             {"nodeid", nodeid},
                             {"outcome", std::string(core::kCrashedOutcome)},
                             {"crash", {{"reason", t.crash_reason}}},
                             {"phases", nlohmann::json::object()},
                             {"duration", nullptr},
                             {"ops", nlohmann::json::array()},
                             {"worker", t.worker.empty() ? nlohmann::json(nullptr)
                                                         : nlohmann::json(std::string(t.worker))}});
    }
  }

  void Warning(const std::string& message) override { summary_.warnings.push_back(message); }

  void Finish() {
    summary_.eager_ops = eager_.size();
    summary_.compile_ops = compile_.size();
    summary_.ops.assign(ops_.begin(), ops_.end());
  }

  const std::vector<nlohmann::json>& unfinished() const { return unfinished_; }

 private:
  ShardSummary& summary_;
  std::set<std::tuple<std::string, std::string, std::string>> eager_, compile_;
  std::set<std::string> ops_;
  std::vector<nlohmann::json> unfinished_;
};

}  // namespace

ShardSummary FinishShard(const std::string& path, const std::string& reason) {
  ShardSummary summary;
  summary.path = path;
  std::string text = core::ReadInputFile(path);
  Finisher finisher(summary);
  core::TraceReadOptions options;
  options.final_crash_reason = reason;
  core::ReadTrace(text, path, finisher, options);
  finisher.Finish();
  if (!finisher.unfinished().empty()) {
    // Written once, by the parent, so later readers find every crash on
    // disk with its real reason.
    std::ofstream out(path, std::ios::app);
    if (!text.empty() && text.back() != '\n') out << "\n";
    for (const auto& rec : finisher.unfinished()) out << rec.dump() << "\n";
  }
  return summary;
}

}  // namespace testmap::tracer
