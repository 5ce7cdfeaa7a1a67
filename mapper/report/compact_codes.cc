#include "mapper/report/compact_codes.h"

#include <array>

#include "core/errors.h"

namespace testmap::report {
namespace {

constexpr int kPayloadBits = 5;
constexpr uint64_t kMoreBit = 1u << kPayloadBits;

constexpr std::array<int8_t, 256> DigitTable() {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (size_t i = 0; i < kCodeAlphabet.size(); ++i)
    t[static_cast<unsigned char>(kCodeAlphabet[i])] = static_cast<int8_t>(i);
  return t;
}
constexpr std::array<int8_t, 256> kDigits = DigitTable();

// Reads one varint at `pos`, advancing it.
uint64_t ReadVarint(std::string_view code, size_t& pos) {
  uint64_t value = 0;
  for (int shift = 0;; shift += kPayloadBits) {
    if (pos >= code.size()) throw core::InputError("varint code cut short");
    if (shift > 60) throw core::InputError("varint code too long");
    int digit = kDigits[static_cast<unsigned char>(code[pos++])];
    if (digit < 0) throw core::InputError("character outside the varint alphabet");
    value |= static_cast<uint64_t>(digit & (kMoreBit - 1)) << shift;
    if (!(digit & kMoreBit)) return value;
  }
}

}  // namespace

void AppendVarint(uint64_t value, std::string& out) {
  while (value >= kMoreBit) {
    out.push_back(kCodeAlphabet[(value & (kMoreBit - 1)) | kMoreBit]);
    value >>= kPayloadBits;
  }
  out.push_back(kCodeAlphabet[value]);
}

std::vector<uint64_t> DecodeVarints(std::string_view code) {
  std::vector<uint64_t> values;
  for (size_t pos = 0; pos < code.size();) values.push_back(ReadVarint(code, pos));
  return values;
}

std::string FrontCode(const std::vector<std::string>& sorted) {
  std::string out;
  const std::string* previous = nullptr;
  for (const std::string& s : sorted) {
    if (s.find('\n') != std::string::npos)
      throw core::InputError("cannot front-code a string with a newline: " + s);
    size_t common = 0;
    if (previous) {
      if (s < *previous) throw core::InputError("front coding needs sorted strings");
      while (common < s.size() && common < previous->size() && s[common] == (*previous)[common])
        ++common;
    }
    AppendVarint(common, out);
    out.append(s, common);
    out.push_back('\n');
    previous = &s;
  }
  return out;
}

std::vector<std::string> DecodeFrontCoded(std::string_view code) {
  std::vector<std::string> out;
  for (size_t pos = 0; pos < code.size();) {
    size_t common = ReadVarint(code, pos);
    size_t end = code.find('\n', pos);
    if (end == std::string_view::npos) throw core::InputError("front code cut short");
    if (common > (out.empty() ? 0 : out.back().size()))
      throw core::InputError("front code shares more than the previous string");
    std::string s = out.empty() ? std::string() : out.back().substr(0, common);
    s.append(code.substr(pos, end - pos));
    out.push_back(std::move(s));
    pos = end + 1;
  }
  return out;
}

}  // namespace testmap::report
