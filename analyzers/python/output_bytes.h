// A scan's rendered output: a sequence of pieces, each bytes in memory (a
// file's freshly rendered tests) or a range of an open file (the tree
// output cache's entry). A warm re-scan of a large tree answers tens of
// megabytes; reading them into a buffer cost most of its time (zeroing and
// faulting in the buffer, then copying), so a cached answer goes from the
// entry's file to stdout with sendfile(2) and never passes through this
// process's memory; and a fresh answer is written piece by piece, never
// joined into one buffer first.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace testmap::python {

class OutputBytes {
 public:
  OutputBytes() = default;
  explicit OutputBytes(std::string bytes);
  // [offset, offset + size) of `fd`, which it takes over (closed with the
  // last copy). The file must not change under it: the cache replaces an
  // entry by renaming a new file over it, which leaves an open one intact.
  static OutputBytes FileRange(int fd, uint64_t offset, uint64_t size);

  // Bytes [offset, offset + size) of this output, sharing its pieces.
  OutputBytes Range(uint64_t offset, uint64_t size) const;
  // Appends `other`'s pieces (shared, not copied); a range that continues
  // the last piece's range of the same file joins it.
  void Append(const OutputBytes& other);
  void Append(std::string bytes);

  uint64_t size() const { return size_; }
  // All of it as a string (reads file ranges whole: for tests and small
  // outputs, not for printing).
  std::string str() const;
  // Writes all of it to `fd`; false, with errno set, when a write or read
  // fails or a file range turns out shorter than it was.
  bool WriteTo(int fd) const;

 private:
  struct Piece {
    std::shared_ptr<const std::string> bytes;  // either these bytes
    std::shared_ptr<const int> file;           // or a range of this fd, closed by the deleter
    uint64_t offset = 0, size = 0;             // within `bytes` or the file
  };
  void Add(Piece p);
  std::vector<Piece> pieces_;
  uint64_t size_ = 0;
};

}  // namespace testmap::python
