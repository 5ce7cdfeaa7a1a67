// The byte layout of the scan's cache entries (scan_cache.cc, the per-file
// records; tree_output_cache.cc, the whole output's summary): fixed-width
// little-endian integers and strings prefixed by their 32-bit length, and
// LEB128 varints where most values are small (scan_cache.cc's records). A
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
  void Varint(uint64_t v) {
    for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    out.push_back(static_cast<char>(v));
  }
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
  // False past the end or past 10 bytes (no uint64_t needs more).
  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 70 && !b_.empty(); shift += 7) {
      uint8_t byte = static_cast<uint8_t>(b_[0]);
      b_.remove_prefix(1);
      *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  }
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
