#include "timings/trace_timings_reader.h"

#include "core/node_id.h"
#include "core/read_file.h"
#include "core/trace_reader.h"

namespace testmap::timings {
namespace {

class TimingCollector : public core::TraceVisitor {
 public:
  TimingCollector(const std::string& source, std::vector<TimingRecord>& out,
                  std::vector<ProcessWall>* walls)
      : source_(source), out_(out), walls_(walls) {}

  ~TimingCollector() override { CloseWall(); }

  void Run(const core::TraceRun& run) override {
    if (!walls_) return;
    CloseWall();
    wall_.Start(run.record, source_, run.line, out_.size());
  }

  void Collection(const core::TraceCollection& c) override {
    if (!walls_) return;
    std::vector<std::pair<std::string, int64_t>> files;
    for (const auto& [file, tests] : c.files) files.emplace_back(file, tests);
    wall_.AddCollection(c.end, files);
  }

  void Test(const core::TraceTest& t) override {
    TimingRecord r;
    r.id = t.nodeid;
    core::NodeId parts = core::NodeId::Parse(r.id);
    r.file = core::FileKey(parts.path);
    r.cls = parts.cls;
    r.source = source_;
    r.line = t.line;
    r.outcome = OutcomeFromName(std::string(t.outcome));
    if (t.duration) {
      r.seconds = *t.duration;
      CheckDuration(r.seconds, source_, t.line, r.id);
    } else {
      r.outcome = Outcome::kSkipped;  // crashed: untimed
    }
    if (walls_) wall_.AddTest(r.file, r.seconds, t.start);
    out_.push_back(std::move(r));
  }

 private:
  void CloseWall() {
    if (auto wall = wall_.Finish(out_.size())) walls_->push_back(std::move(*wall));
  }

  const std::string& source_;
  std::vector<TimingRecord>& out_;
  std::vector<ProcessWall>* walls_;
  TraceRunWall wall_;
};

}  // namespace

std::vector<TimingRecord> ParseTraceShard(const std::string& text, const std::string& source,
                                          std::vector<ProcessWall>* walls) {
  std::vector<TimingRecord> out;
  {
    TimingCollector collector(source, out, walls);
    core::ReadTrace(text, source, collector);
  }
  return out;
}

std::vector<TimingRecord> ReadTraceShard(const std::string& path, std::vector<ProcessWall>* walls) {
  return ParseTraceShard(core::ReadInputFile(path), path, walls);
}

}  // namespace testmap::timings
