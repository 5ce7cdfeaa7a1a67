// The toy backend's own registration macros: one line per unary kernel,
// the way real backends shorten their TORCH_LIBRARY_IMPL blocks. A reader
// that guessed from spelling would miss them; they expand to m.impl.
#pragma once

#include <torch/library.h>

// TOY_UNARY(neg) registers toy::neg for aten::neg.
#define TOY_UNARY(op) m.impl(#op, TORCH_FN(::toy::op))

// TOY_IMPL_OVERLOAD(add, Tensor, toy::add) registers aten::add.Tensor.
#define TOY_IMPL_OVERLOAD(op, overload, fn) m.impl(#op "." #overload, &fn)
