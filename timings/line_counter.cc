#include "timings/line_counter.h"

#include <algorithm>

namespace testmap::timings {

int LineCounter::LineAt(size_t offset) {
  offset = std::min(offset, text_.size());
  if (offset >= offset_) {
    line_ += static_cast<int>(std::count(text_.begin() + offset_, text_.begin() + offset, '\n'));
  } else {
    line_ -= static_cast<int>(std::count(text_.begin() + offset, text_.begin() + offset_, '\n'));
  }
  offset_ = offset;
  return line_;
}

}  // namespace testmap::timings
