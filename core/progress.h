// A progress line for long work at a terminal:
//
//   testmap scan: 1,204/8,311 files · 412/s · 3 s
//
// on stderr, redrawn at most every `interval`, and only when stderr is a
// terminal someone watches: never in a pipe or a file, never under
// CI=true (CI logs keep every redraw as a line). One concept for every
// stage: scans, trace runs, ingests, backend scans.
//
//   core::Progress progress("testmap ingest: reading", "files", paths.size());
//   ... progress.Add(1);  // from any thread
//   progress.Finish();    // clears the line (the destructor does too)
//
// Pinned mode keeps the line on the terminal's last row, below a child
// process that writes to the same terminal (pytest under `testmap trace`):
// the rows above become a scroll region, as apt does for dpkg's output, and
// the line is redrawn there without moving the child's cursor.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace testmap::core {

class Progress {
 public:
  struct Options {
    int fd = 2;  // stderr
    bool pinned = false;
    std::chrono::milliseconds interval{100};
  };

  // `what` leads the line; `unit` names what is counted ("" counts nothing:
  // the line says `what` and the time). `total` 0: unknown.
  Progress(std::string what, std::string unit, uint64_t total = 0);
  Progress(std::string what, std::string unit, uint64_t total, Options options);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Thread-safe; cheap when disabled or between redraws.
  void Add(uint64_t n = 1);
  void Set(uint64_t done);
  void SetTotal(uint64_t total);
  // Clears the line (and, pinned, gives the terminal its last row back).
  // Idempotent.
  void Finish();

  bool enabled() const { return enabled_; }
  uint64_t done() const { return done_; }

  // Whether `fd` is a terminal someone watches: a TTY, and CI is not "true".
  static bool ShouldShow(int fd);

 private:
  void Draw(bool force);
  std::string Line(std::chrono::steady_clock::time_point now) const;
  void Write(const std::string& bytes) const;

  const std::string what_, unit_;
  const Options options_;
  const bool enabled_;
  const std::chrono::steady_clock::time_point start_;
  std::atomic<uint64_t> done_{0}, total_{0};
  std::atomic<int64_t> last_draw_ns_{0};
  std::mutex draw_;  // one writer of the line at a time
  bool drawn_ = false, finished_ = false;
  std::string last_text_;  // what the line shows now: unchanged, not redrawn
  int region_rows_ = 0;    // pinned: the terminal height the scroll region was set for
};

}  // namespace testmap::core
