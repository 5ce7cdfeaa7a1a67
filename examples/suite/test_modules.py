"""ModuleInfo-driven tests in the style of PyTorch's test/test_modules.py.

Idioms exercised:
  * @modules over ModuleInfos picked out of module_db by a list
    comprehension on ``module_info.module_cls`` / ``module_info.name``;
  * ``allowed_dtypes=[torch.float32]``;
  * a module whose train and eval modes differ (nn.BatchNorm1d), which gets
    ``_train_mode`` / ``_eval_mode`` in the test name and a ``training``
    argument; modules whose modes don't differ get neither suffix;
  * ``train_eval_mode=TrainEvalMode.train_only`` (no mode suffix at all);
  * instantiate_device_type_tests(..., except_for="cuda").
"""

import torch
from torch.testing._internal.common_device_type import instantiate_device_type_tests
from torch.testing._internal.common_modules import module_db, modules, TrainEvalMode
from torch.testing._internal.common_utils import freeze_rng_state, run_tests, TestCase


simple_modules = [
    m for m in module_db if m.module_cls in (torch.nn.Linear, torch.nn.ReLU, torch.nn.BatchNorm1d)
]
linear_modules = [m for m in module_db if m.name == "nn.Linear"]


class TestModuleSmoke(TestCase):
    @modules(simple_modules, allowed_dtypes=[torch.float32])
    def test_forward(self, device, dtype, module_info, training):
        module_inputs = module_info.module_inputs_func(
            module_info, device=device, dtype=dtype, requires_grad=False, training=training
        )
        for module_input in module_inputs[:2]:
            args, kwargs = module_input.constructor_input.args, module_input.constructor_input.kwargs
            m = module_info.module_cls(*args, **kwargs).to(device=device, dtype=dtype)
            m.train(training)
            fw_args = module_input.forward_input.args
            fw_kwargs = module_input.forward_input.kwargs
            with freeze_rng_state():
                out = m(*fw_args, **fw_kwargs)
            self.assertEqual(out.dtype, dtype)

    @modules(simple_modules, allowed_dtypes=[torch.float32])
    def test_backward_populates_grads(self, device, dtype, module_info, training):
        module_inputs = module_info.module_inputs_func(
            module_info, device=device, dtype=dtype, requires_grad=True, training=training
        )
        module_input = module_inputs[0]
        args, kwargs = module_input.constructor_input.args, module_input.constructor_input.kwargs
        m = module_info.module_cls(*args, **kwargs).to(device=device, dtype=dtype)
        m.train(training)
        out = m(*module_input.forward_input.args, **module_input.forward_input.kwargs)
        out.sum().backward()
        for p in m.parameters():
            if p.requires_grad:
                self.assertIsNotNone(p.grad)

    @modules(linear_modules, allowed_dtypes=[torch.float32, torch.float64],
             train_eval_mode=TrainEvalMode.train_only)
    def test_state_dict_roundtrip(self, device, dtype, module_info, training):
        module_input = module_info.module_inputs_func(
            module_info, device=device, dtype=dtype, requires_grad=False, training=training
        )[0]
        args, kwargs = module_input.constructor_input.args, module_input.constructor_input.kwargs
        m = module_info.module_cls(*args, **kwargs).to(device=device, dtype=dtype)
        m2 = module_info.module_cls(*args, **kwargs).to(device=device, dtype=dtype)
        m2.load_state_dict(m.state_dict())
        fw_args = module_input.forward_input.args
        fw_kwargs = module_input.forward_input.kwargs
        self.assertEqual(m(*fw_args, **fw_kwargs), m2(*fw_args, **fw_kwargs))


instantiate_device_type_tests(TestModuleSmoke, globals(), except_for="cuda")

if __name__ == "__main__":
    run_tests()
