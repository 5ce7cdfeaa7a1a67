"""Roles on real traced runs of examples/suite (the shared session runs):
what the test's own code dispatched is kept apart from assertEqual's
comparisons, input makers, setup and teardown, by both recorders alike."""

import pytest

from conftest import eager_set

RECORDERS = ("cpp", "cpp_passthrough", "reference")


def ops_in(test, role):
    return {op for op, _, _ in eager_set(test, roles={role})}


def one(traces, suffix):
    found = [t for n, t in traces.items() if n.endswith(suffix)]
    assert len(found) == 1, (suffix, sorted(traces)[:5])
    return found[0]


@pytest.mark.parametrize("recorder", RECORDERS)
def test_a_view_only_body_has_only_view_in_role_test(suite_traces, recorder):
    t = one(suite_traces[recorder], "test_roles.py::TestViewRoles::test_view_checked_with_assert_equal")
    # `view` can reach a recorder as `_reshape_alias` under a mode (NOTES.md).
    assert ops_in(t, "test") <= {"aten::view", "aten::_reshape_alias"} and ops_in(t, "test")
    # assertEqual compared the tensors: its ops are there, as role assert.
    assert {"aten::abs", "aten::eq.Tensor", "aten::sub.Tensor"} <= ops_in(t, "assert")
    assert "aten::arange" in ops_in(t, "setup")  # made in setUp


@pytest.mark.parametrize("recorder", RECORDERS)
def test_make_tensor_is_inputs_and_assert_close_is_assert(suite_traces, recorder):
    t = one(suite_traces[recorder], "test_roles.py::test_make_tensor_and_assert_close")
    assert ops_in(t, "test") == {"aten::neg"}
    assert "aten::uniform_" in ops_in(t, "inputs")
    assert {"aten::abs", "aten::eq.Tensor"} <= ops_in(t, "assert")


@pytest.mark.parametrize("recorder", RECORDERS)
def test_fixture_phases_are_setup_and_teardown(suite_traces, recorder):
    t = one(suite_traces[recorder], "test_roles.py::test_fixture_setup_and_teardown")
    assert ops_in(t, "setup") == {"aten::ones"}
    assert ops_in(t, "test") == {"aten::mul_.Tensor"}
    assert ops_in(t, "teardown") == {"aten::zero_"}


@pytest.mark.parametrize("recorder", RECORDERS)
def test_opinfo_and_moduleinfo_inputs(suite_traces, recorder):
    traces = suite_traces[recorder]
    # `for sample in op.sample_inputs(...)`: each step of the generator is
    # inputs, the op called on the sample is the test's.
    t = one(traces, "test_ops.py::TestCommonOpsCPU::test_sample_inputs_run_add_cpu_float32")
    assert "aten::add.Tensor" in ops_in(t, "test")
    assert ops_in(t, "inputs") and "aten::add.Tensor" not in ops_in(t, "inputs")
    modules = [t for n, t in traces.items() if n.startswith("test_modules.py") and t["outcome"] == "passed"]
    assert modules and all(ops_in(t, "inputs") for t in modules)


def test_every_op_record_has_a_role(suite_traces):
    roles = {o.get("role") for t in suite_traces["cpp"].values() for o in t["ops"]}
    assert roles == {"test", "assert", "inputs", "setup", "teardown"}, roles
