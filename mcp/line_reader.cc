#include "mcp/line_reader.h"

#include <unistd.h>

#include <cerrno>

namespace testmap::mcp {
namespace {

constexpr size_t kChunk = 64 * 1024;

bool Blank(const std::string& s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

}  // namespace

bool LineReader::Fill() {
  if (eof_) return false;
  char chunk[kChunk];
  while (true) {
    ssize_t n = read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    eof_ = true;
    return false;
  }
}

LineReader::Status LineReader::Next(std::string& line, size_t& skipped) {
  skipped = 0;
  bool discarding = false;
  while (true) {
    size_t nl = buffer_.find('\n', scanned_);
    if (nl != std::string::npos) {
      if (discarding || nl > max_bytes_) {
        skipped += nl;
        buffer_.erase(0, nl + 1);
        scanned_ = 0;
        return Status::kOversized;
      }
      line.assign(buffer_, 0, nl);
      buffer_.erase(0, nl + 1);
      scanned_ = 0;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (Blank(line)) continue;
      return Status::kLine;
    }
    scanned_ = buffer_.size();
    if (buffer_.size() > max_bytes_) {
      // Too long already: count it and keep only what is still to scan.
      discarding = true;
      skipped += buffer_.size();
      buffer_.clear();
      scanned_ = 0;
    }
    if (!Fill()) {
      if (discarding) {
        skipped += buffer_.size();
        buffer_.clear();
        return Status::kOversized;
      }
      if (buffer_.empty() || Blank(buffer_)) {
        buffer_.clear();
        return Status::kEof;
      }
      line.swap(buffer_);
      buffer_.clear();
      scanned_ = 0;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return Status::kLine;
    }
  }
}

}  // namespace testmap::mcp
