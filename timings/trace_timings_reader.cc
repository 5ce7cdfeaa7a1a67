#include "timings/trace_timings_reader.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

#include "core/node_id.h"
#include "core/read_file.h"
#include "core/trace_reader.h"

namespace testmap::timings {
namespace {

// Seconds since the epoch of the plugin's start_time (Python's
// datetime.now(timezone.utc).isoformat(): "2026-12-01T08:00:00.123456+00:00"),
// or a negative number when it does not read as one.
double EpochOfIsoUtc(const std::string& iso) {
  std::tm tm{};
  double seconds = 0;
  int consumed = 0;
  if (std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%lf%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &seconds, &consumed) != 6) {
    return -1;
  }
  const std::string zone = iso.substr(consumed);
  if (!zone.empty() && zone != "Z" && zone != "+00:00") return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  tm.tm_sec = 0;
  return static_cast<double>(timegm(&tm)) + seconds;
}

class TimingCollector : public core::TraceVisitor {
 public:
  TimingCollector(const std::string& source, std::vector<TimingRecord>& out,
                  std::vector<ProcessWall>* walls)
      : source_(source), out_(out), walls_(walls) {}

  ~TimingCollector() override { CloseWall(); }

  void Run(const core::TraceRun& run) override {
    if (!walls_) return;
    CloseWall();
    auto record = nlohmann::json::parse(run.record, nullptr, /*allow_exceptions=*/false);
    if (!record.is_object() || !record.contains("metadata") || !record["metadata"].is_object())
      return;
    const auto& start = record["metadata"].value("start_time", nlohmann::json());
    if (!start.is_string()) return;
    start_ = EpochOfIsoUtc(start.get<std::string>());
    if (start_ < 0) return;
    wall_ = ProcessWall{};
    wall_.source = source_;
    wall_.line = run.line;
    wall_.first_record = out_.size();
    end_ = start_;
    open_ = true;
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
    if (open_) {
      wall_.test_seconds += r.seconds;
      ++wall_.tests;
      files_.insert(r.file);
      if (t.start) end_ = std::max(end_, *t.start + r.seconds);
    }
    out_.push_back(std::move(r));
  }

 private:
  void CloseWall() {
    if (!open_) return;
    open_ = false;
    wall_.files = static_cast<int>(files_.size());
    wall_.end_record = out_.size();
    wall_.wall_seconds = end_ - start_;
    files_.clear();
    if (wall_.tests > 0 && wall_.wall_seconds <= kMaxDurationSeconds) walls_->push_back(wall_);
  }

  const std::string& source_;
  std::vector<TimingRecord>& out_;
  std::vector<ProcessWall>* walls_;
  bool open_ = false;
  ProcessWall wall_;
  double start_ = 0, end_ = 0;
  std::set<std::string> files_;
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
