# The form real PyTorch test files use: a module function makes the patched
# copy of a class and binds it through globals() under the copy's own name;
# module code calls it after each class, after instantiate_parametrized_tests
# (the copy takes the parametrized names) and before
# instantiate_device_type_tests (the copy is instantiated like any
# template). `testmap scan` must print what pytest collects
# (tests/analyzers/python/scan_command_test.cc).
import torch
from torch._dynamo.testing import make_test_cls_with_patches as with_patches
from torch.testing._internal.common_device_type import (
    dtypes,
    instantiate_device_type_tests,
)
from torch.testing._internal.common_utils import (
    instantiate_parametrized_tests,
    parametrize,
    skipIfTorchDynamo,
    TestCase,
)


def expected_to_fail_when_patched(fn):
    fn._fails_patched = True
    return fn


def make_patched_cls(cls):
    cls = with_patches(
        cls,
        "Patched",
        "_patched",
        (torch._dynamo.config, "suppress_errors", True),
        xfail_prop="_fails_patched",
        decorator=skipIfTorchDynamo("patched settings and Dynamo do not mix"),
    )
    cls.__file__ = __file__
    cls.__module__ = __name__
    globals()[cls.__name__] = cls


class ArithTests(TestCase):
    def test_add(self):
        pass

    @expected_to_fail_when_patched
    def test_sub(self):
        pass

    @parametrize("scale", [1, 3])
    def test_mul(self, scale):
        pass


instantiate_parametrized_tests(ArithTests)
make_patched_cls(ArithTests)


class DeviceArithTests(TestCase):
    @dtypes(torch.float32, torch.int64)
    def test_div(self, device, dtype):
        pass

    @parametrize("inplace", [False, True])
    def test_neg(self, device, inplace):
        pass

    def test_abs(self, device):
        pass


make_patched_cls(DeviceArithTests)
instantiate_device_type_tests(DeviceArithTests, globals(), only_for=("cpu",))
instantiate_device_type_tests(PatchedDeviceArithTests, globals(), only_for="cpu")  # noqa: F821


# A helper that returns the copy, called in a loop over classes with the
# patches passed as `*patches` (the loop variable is deleted afterwards, or
# pytest would collect the last class a second time under its name).
_patches = [(torch._dynamo.config, "verbose", False)]


def make_verbose_cls(cls, prefix="Verbose"):
    made = with_patches(cls, prefix, "_verbose", *_patches)
    globals()[made.__name__] = made
    return made


for test_class in [ArithTests, PatchedArithTests]:  # noqa: F821
    make_verbose_cls(test_class)
del test_class

Loud = make_verbose_cls(ArithTests, prefix="Loud")
