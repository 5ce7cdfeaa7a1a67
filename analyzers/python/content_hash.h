// Content hashes: XXH3-128 of bytes. Used to key caches by file content and
// to fingerprint a test's normalized source; not for security.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace testmap::python {

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

}  // namespace testmap::python
