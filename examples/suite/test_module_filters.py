"""@modules over ModuleInfo lists filtered by their attributes, in the
style of PyTorch's test_modules.py.

Idioms exercised (cut to a few modules by name so the file runs fast):
  * ``[m for m in module_db if m.supports_gradgrad]`` (nn.Hardswish does
    not support gradgrad);
  * ``m.module_error_inputs_func is not None``;
  * ``'inplace' in signature(m.module_cls).parameters``: the module
    class's constructor signature.
"""

from inspect import signature

import torch
from torch.testing._internal.common_device_type import instantiate_device_type_tests
from torch.testing._internal.common_modules import module_db, modules, TrainEvalMode
from torch.testing._internal.common_utils import run_tests, TestCase

NAMES = ("nn.Hardswish", "nn.ELU", "nn.Linear", "nn.BatchNorm1d", "nn.MaxPool2d")
few = [m for m in module_db if m.name in NAMES]


class TestModuleFilters(TestCase):
    @modules([m for m in few if m.supports_gradgrad], allowed_dtypes=(torch.float32,),
             train_eval_mode=TrainEvalMode.train_only)
    def test_gradgrad(self, device, dtype, module_info, training):
        self.assertTrue(module_info.supports_gradgrad)

    @modules([m for m in few if m.module_error_inputs_func is not None],
             allowed_dtypes=(torch.float32,))
    def test_error_inputs(self, device, dtype, module_info, training):
        self.assertIsNotNone(module_info.module_error_inputs_func)

    @modules([m for m in few if "inplace" in signature(m.module_cls).parameters],
             allowed_dtypes=(torch.float64,))
    def test_inplace_parameter(self, device, dtype, module_info, training):
        self.assertIn("inplace", signature(module_info.module_cls).parameters)


instantiate_device_type_tests(TestModuleFilters, globals(), only_for="cpu")

if __name__ == "__main__":
    run_tests()
