#include "core/key_field.h"

#include <cstdio>

#include "core/errors.h"

namespace testmap::core {
std::string ShownField(std::string_view s) {
  std::string out = "`";
  for (size_t i = 0; i < s.size() && i < 60; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f || c >= 0x80) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += s.size() > 60 ? "...`" : "`";
  return out;
}

std::optional<size_t> FirstInvalidUtf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t i = 0, n = s.size();
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || (len == 2 && c < 0xC2) || i + len > n) return i;
    for (int k = 1; k < len; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    if (len == 3 && ((c == 0xE0 && p[i + 1] < 0xA0) || (c == 0xED && p[i + 1] >= 0xA0))) return i;
    if (len == 4 && ((c == 0xF0 && p[i + 1] < 0x90) || c > 0xF4 || (c == 0xF4 && p[i + 1] >= 0x90)))
      return i;
    i += len;
  }
  return std::nullopt;
}

std::optional<std::string> KeyFieldProblem(std::string_view field, bool allow_empty) {
  if (field.empty()) return allow_empty ? std::nullopt : std::optional<std::string>("is empty");
  if (field.size() > kMaxKeyFieldBytes)
    return "is " + std::to_string(field.size()) + " bytes, over the limit of " +
           std::to_string(kMaxKeyFieldBytes) + " bytes";
  for (size_t i = 0; i < field.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(field[i]);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", c);
      return std::string("holds the control character ") + buf + " at byte " + std::to_string(i);
    }
  }
  if (auto bad = FirstInvalidUtf8(field))
    return "is not valid UTF-8 at byte " + std::to_string(*bad);
  return std::nullopt;
}

std::optional<std::string> ValueItemProblem(std::string_view item) {
  if (auto problem = KeyFieldProblem(item, /*allow_empty=*/true)) return problem;
  if (size_t comma = item.find(','); comma != std::string_view::npos)
    return "holds a ',' at byte " + std::to_string(comma);
  return std::nullopt;
}

void CheckKeyField(std::string_view field, const char* what, const std::string& file, int line,
                   bool allow_empty) {
  if (auto problem = KeyFieldProblem(field, allow_empty))
    throw InputError(file, line, std::string(what) + " " + ShownField(field) + " " + *problem);
}

void CheckValueItem(std::string_view item, const char* what, const std::string& file, int line) {
  if (auto problem = ValueItemProblem(item))
    throw InputError(file, line, std::string(what) + " " + ShownField(item) + " " + *problem);
}

}  // namespace testmap::core
