// Content hashes: XXH3 of bytes, as lowercase hex. They key caches by file
// content, fingerprint a test's normalized source and name runs and files
// in the index; not for security.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace testmap::core {

struct Hash128 {
  uint64_t high = 0, low = 0;
  bool operator==(const Hash128&) const = default;
};

Hash128 ContentHash(std::string_view bytes);

// Streaming form, for hashing a sequence of tokens without joining them.
class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;
  void Update(std::string_view bytes);
  Hash128 Digest() const;

 private:
  void* state_;
};

// 32 lowercase hex digits.
std::string HexDigest(const Hash128& h);

// 16 lowercase hex digits of XXH3-64: short ids (runs, ingested files).
std::string ShortHexDigest(std::string_view bytes);

}  // namespace testmap::core
