"""In-place/out=, factory, no_grad/inference_mode and autograd-thread cases
(cases/test_dispatch_cases.py), traced by both recorders."""

import pytest

from conftest import CASES, eager_set, role_set, run_traced, traced_tests


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    runs = {}
    for name, recorder, extra in (("cpp", "cpp", ()), ("reference", "reference", ()),
                                  ("cpp_passthrough", "cpp", ("--testmap-passthrough-mode",))):
        out = tmp_path_factory.mktemp(f"cases-{name}")
        proc = run_traced(out, ["test_dispatch_cases.py", "-p", "no:cacheprovider"], recorder=recorder,
                          extra=extra, cwd=CASES)
        assert proc.returncode == 0, proc.stdout[-2000:]
        runs[name] = {n.split("::")[-1]: t for n, t in traced_tests(str(out)).items()}
    return runs


def ops_of(cases, recorder, test):
    return eager_set(cases[recorder][test])


@pytest.mark.parametrize("recorder", ["cpp", "reference"])
def test_expected_ops(cases, recorder):
    ops = lambda t: ops_of(cases, recorder, t)  # noqa: E731
    assert ("aten::add_.Tensor", "float64", "cpu") in ops("test_inplace_and_out_variants")
    assert ("aten::mul.out", "float64", "cpu") in ops("test_inplace_and_out_variants")
    factory = ops("test_factory_ops_without_tensor_inputs")
    assert {("aten::zeros", "bfloat16", "cpu"), ("aten::arange", "int64", "cpu"),
            ("aten::full", "int32", "cpu")} <= factory
    grad_modes = ops("test_no_grad_and_inference_mode")
    # `w.mul_(2)`: the 2 is a wrapped number, so the Tensor overload runs.
    assert ("aten::mul_.Tensor", "float32", "cpu") in grad_modes
    # Inference mode skips the autograd keys, so CompositeImplicitAutograd
    # `linear` reaches the recorder undecomposed, as it reaches a mode.
    assert ("aten::linear", "float32", "cpu") in grad_modes
    backward = ops("test_backward_on_the_autograd_engine")
    assert ("aten::sigmoid_backward", "float32", "cpu") in backward
    # A TorchDispatchMode is thread-local and a new Python thread starts
    # without it; the C++ recorder follows the same rule (its key is
    # thread-local too), so neither sees this thread's backward.
    threaded = ops("test_backward_started_on_another_thread")
    assert ("aten::sigmoid", "float32", "cpu") in threaded
    assert ("aten::sigmoid_backward", "float32", "cpu") not in threaded
    mixed = ops("test_wrapped_numbers_and_mixed_dtypes")
    # `a + 2.5`: the wrapped number is a scalar, not a float64 tensor input.
    assert ("aten::add.Tensor", "int32", "cpu") in mixed
    assert ("aten::add.Tensor", "float64", "cpu") not in mixed
    assert {("aten::where.self", "bool", "cpu"), ("aten::where.self", "float32", "cpu"),
            ("aten::where.self", "float64", "cpu")} <= mixed


@pytest.mark.parametrize("recorder", ["cpp", "reference"])
def test_devices_are_kept_apart(cases, recorder):
    ops = ops_of(cases, recorder, "test_devices_are_kept_apart")
    assert {("aten::add_.Tensor", "float32", "meta"), ("aten::add_.Tensor", "float32", "cpu"),
            ("aten::mul.Tensor", "float32", "meta"), ("aten::ones", "float32", "meta")} <= ops
    assert ("aten::mul.Tensor", "float32", "cpu") not in ops


def test_recorders_agree(cases):
    # Under the same program (see plugin.py on the passthrough mode): the
    # reference's mode makes AccumulateGrad detach, for one.
    assert len(cases["reference"]) == 7
    for test in cases["reference"]:
        assert role_set(cases["cpp_passthrough"][test]) == role_set(cases["reference"][test]), test
