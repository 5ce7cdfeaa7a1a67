#include "analyzers/python/python_value.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace testmap::python {

bool Value::HasUnknown() const {
  if (kind == Kind::kUnknown) return true;
  for (const auto& item : items)
    if (item.HasUnknown()) return true;
  return false;
}

std::string PythonFloatStr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // Shortest digits that round-trip, as Python's repr does (David Gay's
  // algorithm there, Ryu-like here; both give the shortest string).
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);  // like "-1.2345e-05"
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  size_t e = sci.find('e');
  std::string mant = sci.substr(0, e);
  int exp = std::atoi(sci.c_str() + e + 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = neg ? "-" : "";
  // repr switches to exponent notation outside 1e-4 <= |v| < 1e16.
  if (exp < -4 || exp >= 16) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    return out + eb;
  }
  if (exp < 0) return out + "0." + std::string(-exp - 1, '0') + digits;
  if (static_cast<int>(digits.size()) <= exp + 1)
    return out + digits + std::string(exp + 1 - digits.size(), '0') + ".0";
  return out + digits.substr(0, exp + 1) + "." + digits.substr(exp + 1);
}

bool PythonStr(const Value& v, std::string* out) {
  switch (v.kind) {
    case Value::Kind::kNone:
      *out = "None";
      return true;
    case Value::Kind::kBool:
      *out = v.b ? "True" : "False";
      return true;
    case Value::Kind::kInt:
      *out = std::to_string(v.i);
      return true;
    case Value::Kind::kFloat:
      *out = PythonFloatStr(v.f);
      return true;
    case Value::Kind::kStr:
    case Value::Kind::kDevice:
      *out = v.text;
      return true;
    case Value::Kind::kDtype:
      *out = "torch." + v.text;
      return true;
    case Value::Kind::kEnum:
      *out = v.text;
      return true;
    default:
      return false;
  }
}

}  // namespace testmap::python
