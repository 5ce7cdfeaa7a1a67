#include "analyzers/python/python_arithmetic.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace testmap::python {
namespace {

using K = Value::Kind;

bool IsNumber(const Value& v) {
  return v.kind == K::kInt || v.kind == K::kBool || v.kind == K::kFloat;
}
int64_t AsInt(const Value& v) { return v.kind == K::kBool ? (v.b ? 1 : 0) : v.i; }
double AsDouble(const Value& v) {
  return v.kind == K::kFloat ? v.f : static_cast<double>(AsInt(v));
}

Value Unrepresentable(std::string_view text) { return Value::UnknownPrimitive(std::string(text)); }

// Python's floor division and modulo: the quotient rounds down, the
// remainder takes the divisor's sign.
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
int64_t FloorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

bool IntArithmetic(std::string_view op, int64_t a, int64_t b, std::string_view text, Value* out) {
  int64_t r = 0;
  if (op == "+") {
    if (__builtin_add_overflow(a, b, &r)) return *out = Unrepresentable(text), true;
  } else if (op == "-") {
    if (__builtin_sub_overflow(a, b, &r)) return *out = Unrepresentable(text), true;
  } else if (op == "*") {
    if (__builtin_mul_overflow(a, b, &r)) return *out = Unrepresentable(text), true;
  } else if (op == "//" || op == "%") {
    // ZeroDivisionError, and the one quotient past int64 (INT64_MIN // -1).
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1))
      return *out = Unrepresentable(text), true;
    r = op == "//" ? FloorDiv(a, b) : FloorMod(a, b);
  } else if (op == "**") {
    if (b < 0) return false;  // a float: the caller computes it as one
    r = 1;
    for (int64_t e = b, base = a; e > 0; e >>= 1) {
      if ((e & 1) && __builtin_mul_overflow(r, base, &r)) return *out = Unrepresentable(text), true;
      if (e > 1 && __builtin_mul_overflow(base, base, &base))
        return *out = Unrepresentable(text), true;
    }
  } else {
    return false;
  }
  *out = Value::Int(r);
  return true;
}

}  // namespace

bool NumberArithmetic(std::string_view op, const Value& a, const Value& b, std::string_view text,
                      Value* out) {
  if (!IsNumber(a) || !IsNumber(b)) return false;
  bool ints = a.kind != K::kFloat && b.kind != K::kFloat;
  if (ints && op != "/" && IntArithmetic(op, AsInt(a), AsInt(b), text, out)) return true;
  double x = AsDouble(a), y = AsDouble(b), r;
  if (op == "+") {
    r = x + y;
  } else if (op == "-") {
    r = x - y;
  } else if (op == "*") {
    r = x * y;
  } else if (op == "/" || op == "//" || op == "%") {
    if (y == 0) return *out = Unrepresentable(text), true;  // ZeroDivisionError
    if (op == "/") {
      r = x / y;
    } else {
      // CPython's float divmod: the remainder takes the divisor's sign,
      // the quotient is rounded down and then to the nearest integer.
      double mod = std::fmod(x, y);
      double div = (x - mod) / y;
      if (mod != 0) {
        if ((y < 0) != (mod < 0)) {
          mod += y;
          div -= 1;
        }
      } else {
        mod = std::copysign(0.0, y);
      }
      double floordiv;
      if (div != 0) {
        floordiv = std::floor(div);
        if (div - floordiv > 0.5) floordiv += 1;
      } else {
        floordiv = std::copysign(0.0, x / y);
      }
      r = op == "%" ? mod : floordiv;
    }
  } else if (op == "**") {
    if (x == 0 && y < 0) return *out = Unrepresentable(text), true;  // ZeroDivisionError
    if (x < 0 && y != std::floor(y)) return *out = Unrepresentable(text), true;  // a complex
    r = std::pow(x, y);
  } else {
    return false;
  }
  if (!std::isfinite(r)) return *out = Unrepresentable(text), true;  // OverflowError, inf, nan
  *out = Value::Float(r);
  return true;
}

bool NumberSign(std::string_view op, const Value& v, std::string_view text, Value* out) {
  if (!IsNumber(v) || (op != "-" && op != "+")) return false;
  if (v.kind == K::kFloat) {
    *out = Value::Float(op == "-" ? -v.f : v.f);
    return true;
  }
  int64_t i = AsInt(v);
  if (op == "-" && i == std::numeric_limits<int64_t>::min())
    return *out = Unrepresentable(text), true;
  *out = Value::Int(op == "-" ? -i : i);
  return true;
}

}  // namespace testmap::python
