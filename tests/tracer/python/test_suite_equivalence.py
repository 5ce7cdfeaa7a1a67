"""The C++ tracer against the reference TorchDispatchMode, on every test of
examples/suite: the (op overload, dtype, device, role) sets must be equal."""

from conftest import eager_set, role_set


def test_same_tests_and_outcomes(suite_traces):
    ref, cpp = suite_traces["reference"], suite_traces["cpp"]
    assert len(ref) >= 200
    assert set(ref) == set(cpp) == set(suite_traces["cpp_passthrough"])
    assert {n: t["outcome"] for n, t in ref.items()} == {n: t["outcome"] for n, t in cpp.items()}


def test_cpp_equals_reference_for_every_test(suite_traces):
    # Same program on both sides: the C++ run has a do-nothing mode active,
    # so kernels take the same branches as under the reference mode.
    ref, cpp = suite_traces["reference"], suite_traces["cpp_passthrough"]
    mismatches = {}
    for nodeid, test in ref.items():
        a, b = role_set(cpp[nodeid]), role_set(test)
        if a != b:
            mismatches[nodeid] = {"cpp_only": sorted(a - b, key=str), "reference_only": sorted(b - a, key=str)}
    assert not mismatches, mismatches
    assert sum(1 for t in ref.values() if eager_set(t)) >= 150


def test_plain_cpp_differs_only_by_the_modes_own_effect(suite_traces):
    # Without a mode, ATen's isTensorSubclassLike() is false and kernels take
    # their in-place branches: isclose's `__iand__` runs bitwise_and_ where
    # the reference sees bitwise_and. The unperturbed trace must show that.
    cpp, ref = suite_traces["cpp"], suite_traces["reference"]
    compared = [n for n, t in ref.items() if ("aten::bitwise_and.Tensor", "bool", "cpu") in eager_set(t)]
    assert compared
    for nodeid in compared:
        plain = eager_set(cpp[nodeid])
        assert ("aten::bitwise_and_.Tensor", "bool", "cpu") in plain, nodeid
        assert ("aten::bitwise_and.Tensor", "bool", "cpu") not in plain, nodeid


def test_backward_ops_are_recorded(suite_traces):
    for name in ("cpp", "reference"):
        tests = suite_traces[name]
        relu = [t for n, t in tests.items() if "test_matmul_relu_backward" in n]
        assert relu and all(("aten::threshold_backward", "float32", "cpu") in eager_set(t) for t in relu)
        linear = [t for n, t in tests.items() if "test_linear_backward" in n]
        assert linear
        for t in linear:
            ops = {op for op, _, _ in eager_set(t)}
            # Forward linear is addmm; mm only comes from the backward pass.
            assert "aten::addmm" in ops and "aten::mm" in ops, ops


def test_float8_scaled_mm_is_recorded_with_its_dtypes(suite_traces):
    tests = suite_traces["cpp"]
    scaled = [t for n, t in tests.items() if "test_scaled_mm_input_dtypes" in n and "e5m2" in n]
    assert scaled
    for t in scaled:
        entries = [o for o in t["ops"] if o["op"] == "aten::_scaled_mm"]
        assert entries, t["nodeid"]
        assert {"float8_e4m3fn", "float8_e5m2"} <= set(entries[0]["dtypes"])


def test_compiled_tests_record_the_compiled_artifact_not_the_tracing(suite_traces):
    # torch.compile traces on `meta` FakeTensors; those calls are compile
    # internals, which a TorchDispatchMode never sees either.
    for name in ("cpp", "cpp_passthrough", "reference"):
        for nodeid, t in suite_traces[name].items():
            if nodeid.startswith("test_compile.py"):
                assert not {d for _, _, d in eager_set(t)} - {"cpu", None}, (name, nodeid)
