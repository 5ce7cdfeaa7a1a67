// A scan's rendered output: bytes in memory (a fresh render) or a range of
// an open file (the tree output cache's entry). A warm re-scan of a large
// tree answers tens of megabytes; reading them into a buffer cost most of
// its time (zeroing and faulting in the buffer, then copying), so a cached
// answer goes from the entry's file to stdout with sendfile(2) and never
// passes through this process's memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace testmap::python {

class OutputBytes {
 public:
  OutputBytes() = default;
  explicit OutputBytes(std::string bytes);
  // [offset, offset + size) of `fd`, which it takes over (closed with the
  // last copy). The file must not change under it: the cache replaces an
  // entry by renaming a new file over it, which leaves an open one intact.
  static OutputBytes FileRange(int fd, uint64_t offset, uint64_t size);
  // Another range of the same file (which stays open while either lives).
  OutputBytes Range(uint64_t offset, uint64_t size) const;

  uint64_t size() const { return file_ ? file_size_ : bytes_.size(); }
  // All of it as a string (reads a file range whole: for tests and small
  // outputs, not for printing).
  std::string str() const;
  // Writes all of it to `fd`; false, with errno set, when a write or read
  // fails or the file range turns out shorter than it was.
  bool WriteTo(int fd) const;

 private:
  std::string bytes_;
  std::shared_ptr<const int> file_;  // the fd, closed by the deleter
  uint64_t file_offset_ = 0, file_size_ = 0;
};

}  // namespace testmap::python
