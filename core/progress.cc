#include "core/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace testmap::core {
namespace {

using Clock = std::chrono::steady_clock;

// 12345678 -> "12,345,678".
std::string Grouped(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string Rate(double per_second) {
  char buf[32];
  if (per_second >= 10000)
    std::snprintf(buf, sizeof buf, "%.0fk/s", per_second / 1000);
  else if (per_second >= 100)
    std::snprintf(buf, sizeof buf, "%.0f/s", per_second);
  else
    std::snprintf(buf, sizeof buf, "%.1f/s", per_second);
  return buf;
}

std::string Elapsed(double seconds) {
  char buf[32];
  if (seconds < 60)
    std::snprintf(buf, sizeof buf, "%.0f s", seconds);
  else
    std::snprintf(buf, sizeof buf, "%d:%02d", static_cast<int>(seconds) / 60,
                  static_cast<int>(seconds) % 60);
  return buf;
}

struct TerminalSize {
  int rows = 0, cols = 0;
};

TerminalSize SizeOf(int fd) {
  winsize ws{};
  if (ioctl(fd, TIOCGWINSZ, &ws) != 0) return {};
  return {ws.ws_row, ws.ws_col};
}

// At most `cols` - 1 characters of UTF-8 `text` (a full last column would
// wrap on some terminals, and a wrapped line cannot be redrawn with '\r').
std::string Fit(const std::string& text, int cols) {
  if (cols <= 1) return text;
  int shown = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // continuation byte
    if (++shown == cols) return text.substr(0, i);
  }
  return text;
}

}  // namespace

bool Progress::ShouldShow(int fd) {
  const char* ci = std::getenv("CI");
  if (ci && std::strcmp(ci, "true") == 0) return false;
  return isatty(fd) == 1;
}

Progress::Progress(std::string what, std::string unit, uint64_t total)
    : Progress(std::move(what), std::move(unit), total, Options{}) {}

Progress::Progress(std::string what, std::string unit, uint64_t total, Options options)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      options_(options),
      enabled_(ShouldShow(options.fd)),
      start_(Clock::now()),
      total_(total) {
  if (enabled_) Draw(true);
}

Progress::~Progress() { Finish(); }

void Progress::Add(uint64_t n) {
  done_ += n;
  if (enabled_) Draw(false);
}

void Progress::Set(uint64_t done) {
  done_ = done;
  if (enabled_) Draw(false);
}

void Progress::SetTotal(uint64_t total) {
  total_ = total;
  if (enabled_) Draw(false);
}

std::string Progress::Line(Clock::time_point now) const {
  double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = what_;
  if (!unit_.empty()) {
    uint64_t done = done_, total = total_;
    line += " " + Grouped(done) + (total ? "/" + Grouped(total) : "") + " " + unit_;
    // A rate over the first instants says nothing.
    if (seconds >= 0.5) line += " · " + Rate(done / seconds);
  }
  if (seconds >= 1) line += " · " + Elapsed(seconds);
  return line;
}

void Progress::Draw(bool force) {
  Clock::time_point now = Clock::now();
  int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(now - start_).count();
  if (!force && ns - last_draw_ns_.load(std::memory_order_relaxed) <
                    std::chrono::nanoseconds(options_.interval).count())
    return;
  std::unique_lock<std::mutex> lock(draw_, std::try_to_lock);
  if (!lock.owns_lock() || finished_) return;  // another thread is drawing: this count is next
  last_draw_ns_ = ns;
  TerminalSize size = SizeOf(options_.fd);
  std::string text = Fit(Line(now), size.cols);
  if (text == last_text_ && region_rows_ == (options_.pinned ? size.rows : 0)) return;
  last_text_ = text;
  if (!options_.pinned || size.rows < 3) {
    Write("\r" + text + "\033[K");
  } else {
    std::string out;
    if (region_rows_ != size.rows) {
      // Make room below the cursor first, so that shrinking the scroll
      // region does not hide the child's last line; then the region, which
      // homes the cursor: save and restore around it.
      if (!region_rows_) out += "\n\033[1A";
      out += "\0337\033[1;" + std::to_string(size.rows - 1) + "r\0338";
      region_rows_ = size.rows;
    }
    out += "\0337\033[" + std::to_string(size.rows) + ";1H" + text + "\033[K\0338";
    Write(out);
  }
  drawn_ = true;
}

void Progress::Finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(draw_);
  if (finished_) return;
  finished_ = true;
  if (!drawn_) return;
  if (region_rows_) {
    Write("\0337\033[r\033[" + std::to_string(region_rows_) + ";1H\033[K\0338");
  } else {
    Write("\r\033[K");
  }
}

void Progress::Write(const std::string& bytes) const {
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left) {
    ssize_t n = ::write(options_.fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a progress line is never worth failing for
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace testmap::core
