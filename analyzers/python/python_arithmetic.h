// Python's arithmetic on the numbers the evaluator knows (bools, ints that
// fit 64 bits, floats), so that a parameter written as `pi / 2` or `2 ** 10`
// gets the id its value gives. Where Python's answer is a number the
// evaluator cannot hold (an int past 64 bits, inf, nan, a complex) or an
// error (division by zero), the result is an unknown known to be a number:
// no stand-in id is ever given for it.
#pragma once

#include <string_view>

#include "analyzers/python/python_value.h"

namespace testmap::python {

// `a op b` for op in + - * / // % **. Returns false when a or b is not a
// number (the caller decides), else sets *out. `text` is the expression's
// source, kept by an unknown result.
bool NumberArithmetic(std::string_view op, const Value& a, const Value& b, std::string_view text,
                      Value* out);

// `-v` / `+v` for a number; false when v is none.
bool NumberSign(std::string_view op, const Value& v, std::string_view text, Value* out);

}  // namespace testmap::python
