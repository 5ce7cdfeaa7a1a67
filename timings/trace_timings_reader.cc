#include "timings/trace_timings_reader.h"

#include "core/node_id.h"
#include "core/read_file.h"
#include "core/trace_reader.h"

namespace testmap::timings {
namespace {

class TimingCollector : public core::TraceVisitor {
 public:
  TimingCollector(const std::string& source, std::vector<TimingRecord>& out)
      : source_(source), out_(out) {}

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
    out_.push_back(std::move(r));
  }

 private:
  const std::string& source_;
  std::vector<TimingRecord>& out_;
};

}  // namespace

std::vector<TimingRecord> ParseTraceShard(const std::string& text, const std::string& source) {
  std::vector<TimingRecord> out;
  TimingCollector collector(source, out);
  core::ReadTrace(text, source, collector);
  return out;
}

std::vector<TimingRecord> ReadTraceShard(const std::string& path) {
  return ParseTraceShard(core::ReadInputFile(path), path);
}

}  // namespace testmap::timings
