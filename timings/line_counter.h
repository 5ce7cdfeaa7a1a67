// Lines of byte offsets, for readers that report file:line. Readers meet
// offsets in document order, so each lookup counts only the newlines since
// the previous one: the whole file costs one pass, where counting from the
// start for every record cost a pass per record.
#pragma once

#include <cstddef>
#include <string_view>

namespace testmap::timings {

class LineCounter {
 public:
  explicit LineCounter(std::string_view text) : text_(text) {}

  // The 1-based line of byte `offset` (clamped to the text). Cheap when
  // offsets grow; going back costs the distance gone back.
  int LineAt(size_t offset);

 private:
  std::string_view text_;
  size_t offset_ = 0;
  int line_ = 1;  // line of offset_
};

}  // namespace testmap::timings
