// The byte layout of the scan's cache entries (scan_cache.cc, the per-file
// records; tree_output_cache.cc, the whole output's summary): fixed-width
// little-endian integers and strings prefixed by their 32-bit length. A
// reader answers false on a short or malformed entry, never throws: a cache
// entry that does not decode is a miss.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace testmap::python {

class ByteWriter {
 public:
  void U32(uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
  void U64(uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }
  void Str(std::string_view s) {
    U32(static_cast<uint32_t>(s.size()));
    out.append(s);
  }
  std::string out;
};

class ByteReader {
 public:
  explicit ByteReader(std::string_view b) : b_(b) {}
  bool U32(uint32_t* v) { return Fixed(v, 4); }
  bool U64(uint64_t* v) { return Fixed(v, 8); }
  bool Str(std::string_view* s) {
    uint32_t n;
    return U32(&n) && Bytes(n, s);
  }
  // The next `n` bytes (a string whose length was read already).
  bool Bytes(uint32_t n, std::string_view* s) {
    if (b_.size() < n) return false;
    *s = b_.substr(0, n);
    b_.remove_prefix(n);
    return true;
  }
  bool Str(std::string* s) {
    std::string_view v;
    if (!Str(&v)) return false;
    s->assign(v);
    return true;
  }
  bool done() const { return b_.empty(); }
  size_t left() const { return b_.size(); }

 private:
  bool Fixed(void* v, size_t width) {
    if (b_.size() < width) return false;
    std::memcpy(v, b_.data(), width);
    b_.remove_prefix(width);
    return true;
  }
  std::string_view b_;
};

}  // namespace testmap::python
