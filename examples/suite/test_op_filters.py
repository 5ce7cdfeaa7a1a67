"""@ops over OpInfo lists filtered by their attributes, in the style of
PyTorch's test_unary_ufuncs.py, test_reductions.py and test_ops.py.

Idioms exercised (each list is cut to a few ops by name so the file runs
in a second; the attribute filter still decides which of them stay):
  * ``filter(lambda op: op.ref is not None, unary_ufuncs)`` (a reference
    that is None when SciPy is missing, as for i0 here);
  * ``[_fn for _fn in unary_ufuncs if _fn.domain != (None, None)]``;
  * ``isinstance(op, UnaryUfuncInfo)`` and ``not isinstance(...)``;
  * reduction attributes: ``supports_multiple_dims``, ``identity is not
    None``, ``nan_policy == 'omit'``;
  * ``op.error_inputs_func is not None`` and a generator expression over
    ``op.promotes_int_to_float``;
  * a filter function of several statements asking the operator registry
    (``hasattr(torch.ops.aten, op.name)``, ``torch.Tag.reduction in
    aten_op.default.tags``), as has_reduction_tag in test_ops.py;
  * ``functools.partial(ops, ...)`` as a decorator alias;
  * a class attribute holding the op list, read by the decorator.
"""

from functools import partial

import torch
from torch.testing._internal.common_device_type import (
    instantiate_device_type_tests,
    OpDTypes,
    ops,
)
from torch.testing._internal.common_methods_invocations import (
    op_db,
    reduction_ops,
    unary_ufuncs,
    UnaryUfuncInfo,
)
from torch.testing._internal.common_utils import run_tests, TestCase

UNARY = ("abs", "acos", "exp", "i0", "log", "nn.functional.rrelu")
REDUCTIONS = ("all", "argmax", "prod", "sum", "nansum", "nanmean")

with_reference = list(filter(lambda op: op.ref is not None and op.name in UNARY, unary_ufuncs))
with_domain = [_fn for _fn in unary_ufuncs if _fn.domain != (None, None) and _fn.name in UNARY]
unary_kinds = [op for op in op_db if isinstance(op, UnaryUfuncInfo) and op.name in ("abs", "add")]
not_unary = tuple(
    filter(lambda op: not isinstance(op, UnaryUfuncInfo) and op.name in ("abs", "add"), op_db)
)
promoting = (op for op in op_db if op.promotes_int_to_float and op.name in ("exp", "add", "sin"))

float_ops = partial(ops, dtypes=OpDTypes.supported, allowed_dtypes=(torch.float32,))


def has_reduction_tag(op):
    """Whether the aten operator of the same name is tagged a reduction."""
    if not hasattr(torch.ops.aten, op.name):
        return False
    aten_op = getattr(torch.ops.aten, op.name)
    if not hasattr(aten_op, "default"):
        return False
    return torch.Tag.reduction in aten_op.default.tags


tagged = [
    op
    for op in op_db
    if op.name in ("sum", "amax", "add", "nn.functional.relu", "max") and has_reduction_tag(op)
]


class TestOpFilters(TestCase):
    @ops(with_reference, allowed_dtypes=(torch.float32,))
    def test_has_reference(self, device, dtype, op):
        self.assertIsNotNone(op.ref)

    @ops(with_domain, allowed_dtypes=(torch.float32,))
    def test_restricted_domain(self, device, dtype, op):
        self.assertNotEqual(op.domain, (None, None))

    @ops(unary_kinds, dtypes=OpDTypes.none)
    def test_unary_kind(self, device, op):
        self.assertIsInstance(op, UnaryUfuncInfo)

    @ops(not_unary, dtypes=OpDTypes.none)
    def test_not_unary_kind(self, device, op):
        self.assertNotIsInstance(op, UnaryUfuncInfo)

    @ops(promoting, dtypes=OpDTypes.none)
    def test_promotes_int_to_float(self, device, op):
        self.assertTrue(op.promotes_int_to_float)

    @float_ops([op for op in op_db if op.error_inputs_func is not None and op.name in UNARY])
    def test_error_inputs_func(self, device, dtype, op):
        self.assertIsNotNone(op.error_inputs_func)


    @ops(tagged, dtypes=OpDTypes.none)
    def test_reduction_tag(self, device, op):
        self.assertIn(torch.Tag.reduction, getattr(torch.ops.aten, op.name).default.tags)


class TestReductionFilters(TestCase):
    small_reductions = [op for op in reduction_ops if op.name in REDUCTIONS]

    @ops(filter(lambda op: op.supports_multiple_dims, small_reductions), dtypes=OpDTypes.none)
    def test_multiple_dims(self, device, op):
        self.assertTrue(op.supports_multiple_dims)

    @ops(filter(lambda op: not op.supports_multiple_dims, small_reductions), dtypes=OpDTypes.none)
    def test_single_dim(self, device, op):
        self.assertFalse(op.supports_multiple_dims)

    @ops(filter(lambda op: op.identity is not None, small_reductions), dtypes=OpDTypes.none)
    def test_identity(self, device, op):
        self.assertIsNotNone(op.identity)

    @ops(filter(lambda op: op.nan_policy == "omit", small_reductions), allowed_dtypes=(torch.float64,))
    def test_nan_omitted(self, device, dtype, op):
        self.assertEqual(op.nan_policy, "omit")


instantiate_device_type_tests(TestOpFilters, globals(), only_for="cpu")
instantiate_device_type_tests(TestReductionFilters, globals(), only_for="cpu")

if __name__ == "__main__":
    run_tests()
