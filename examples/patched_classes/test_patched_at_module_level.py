# Test classes that torch's make_test_cls_with_patches makes at module
# level: a copy of a class whose `test_*` methods (inherited ones too) run
# under patched settings, renamed with a suffix, bound under a module name
# pytest collects. `testmap scan` must print what pytest collects
# (tests/analyzers/python/scan_command_test.cc).
import unittest

import pytest

import torch
import torch._dynamo.testing
from torch._dynamo.testing import make_test_cls_with_patches
from torch.testing._internal.common_utils import (
    instantiate_parametrized_tests,
    parametrize,
    subtest,
    TestCase,
)

_flag = (torch._dynamo.config, "suppress_errors", True)


class ShapeChecks(TestCase):
    # Not callable: copied under its own name, and never collected.
    test_data = [1, 2, 3]

    def test_reshape(self):
        pass

    def test_view(self):
        pass

    # Starts with `test` but not `test_`: copied as it is, not renamed.
    def testLegacyName(self):
        pass

    def helper(self):
        pass


class MoreShapeChecks(ShapeChecks):
    def test_squeeze(self):
        pass


# The new class is named "Suppressed" + "ShapeChecks" and bound as such.
SuppressedShapeChecks = make_test_cls_with_patches(ShapeChecks, "Suppressed", "_suppressed", _flag)

# Bound under another name: pytest names the class by the module name it
# is bound to.
Quiet = make_test_cls_with_patches(MoreShapeChecks, "Quiet", "_quiet", _flag)

# Through the module's globals() under the class's own name, and through
# the helper's full dotted name, with keyword arguments that change no id.
_made = torch._dynamo.testing.make_test_cls_with_patches(
    MoreShapeChecks,
    "Patched",
    "_patched",
    _flag,
    (torch._dynamo.config, "verbose", False),
    xfail_prop="_expected_to_fail_when_patched",
    decorator=unittest.skipIf(False, "never skipped"),
)
globals()[_made.__name__] = _made


# A pytest-style class: the copy's tests keep their parametrize marks.
class TestPlainChecks:
    @pytest.mark.parametrize("n", [1, 2])
    def test_count(self, n):
        pass

    def test_once(self):
        pass


TestPatchedPlainChecks = make_test_cls_with_patches(TestPlainChecks, "Patched", "_p", _flag)


# Copied before instantiate_parametrized_tests: the copy's tests are then
# named after the renamed function (`test_scale_twice_factor_2`).
class ScaleChecks(TestCase):
    @parametrize("factor", [2, subtest(3, name="three")])
    def test_scale(self, factor):
        pass


TwiceScaleChecks = make_test_cls_with_patches(ScaleChecks, "Twice", "_twice", _flag)
instantiate_parametrized_tests(ScaleChecks)
instantiate_parametrized_tests(TwiceScaleChecks)
