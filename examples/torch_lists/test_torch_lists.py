# OpInfo lists that live outside common_methods_invocations, and filters on
# an Enum-valued OpInfo attribute. `testmap scan` reads both from the torch
# snapshot (docs/scan.md) and must print exactly what pytest collects
# (tests/analyzers/python/torch_lists_scan_test.cc).
import torch
from torch.testing._internal.common_device_type import (
    OpDTypes,
    instantiate_device_type_tests,
    ops,
)
from torch.testing._internal.common_methods_invocations import (
    SpectralFuncType,
    spectral_funcs,
)
from torch.testing._internal.common_utils import TestCase
from torch.testing._internal.custom_op_db import custom_op_db
from torch.testing._internal.hop_db import hop_db
from torch.testing._internal.opinfo import core as opinfo_core
from torch.testing._internal.opinfo.definitions.linalg import op_db as linalg_op_db

# The Enum through the module that defines it, not the one that re-exports it.
ONE_D = opinfo_core.SpectralFuncType.OneD


class TestFourierByDimensionality(TestCase):
    @ops([op for op in spectral_funcs if op.ndimensional == SpectralFuncType.ND],
         dtypes=OpDTypes.any_one)
    def test_any_dims(self, device, dtype, op):
        pass

    @ops([op for op in spectral_funcs if op.ndimensional != ONE_D],
         allowed_dtypes=(torch.float32,))
    def test_not_one_dim(self, device, dtype, op):
        pass

    @ops(filter(lambda op: op.ndimensional in (SpectralFuncType.TwoD, SpectralFuncType.ND),
                spectral_funcs), dtypes=OpDTypes.none)
    def test_two_or_more_dims(self, device, op):
        pass

    @ops([op for op in spectral_funcs if op.ndimensional is SpectralFuncType.OneD
          and "fft.i" in op.name], dtypes=OpDTypes.any_one)
    def test_inverse_one_dim(self, device, dtype, op):
        pass


class TestDatabasesOfOtherModules(TestCase):
    @ops(custom_op_db, dtypes=OpDTypes.any_one)
    def test_custom_ops(self, device, dtype, op):
        pass

    @ops(hop_db, dtypes=OpDTypes.none)
    def test_higher_order_ops(self, device, op):
        pass

    # The last ops of opinfo.definitions.linalg's own op_db (a few dozen
    # linalg ops), not of common_methods_invocations' op_db of that name.
    @ops(linalg_op_db[-3:], allowed_dtypes=(torch.float64,))
    def test_last_linalg(self, device, dtype, op):
        pass


instantiate_device_type_tests(TestFourierByDimensionality, globals(), only_for="cpu")
instantiate_device_type_tests(TestDatabasesOfOtherModules, globals(), only_for="cpu")
