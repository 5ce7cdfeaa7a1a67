// Newline-delimited messages from a file descriptor (the stdio transport of
// MCP: one JSON-RPC message a line), read in bounded memory: a line past
// the limit is skipped as it arrives and reported by its length, so a
// client that sends 100 MB without a newline costs the server one buffer.
#pragma once

#include <cstddef>
#include <string>

namespace testmap::mcp {

class LineReader {
 public:
  enum class Status {
    kLine,       // `line` holds the next message
    kOversized,  // a line of `skipped` bytes (> max_bytes) was dropped
    kEof,        // no more input
  };

  LineReader(int fd, size_t max_bytes) : fd_(fd), max_bytes_(max_bytes) {}

  // The next non-blank line, without its "\n" (or "\r\n"). A last line
  // without a newline still counts. Blocks until one is complete; a read
  // error counts as the end of input.
  Status Next(std::string& line, size_t& skipped);

 private:
  bool Fill();  // false at end of input

  int fd_;
  size_t max_bytes_;
  std::string buffer_;
  size_t scanned_ = 0;  // bytes of buffer_ known to hold no newline
  bool eof_ = false;
};

}  // namespace testmap::mcp
