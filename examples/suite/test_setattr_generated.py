"""Tests that import-time code adds to a class with setattr, in the style of
generate_not_implemented_tests in PyTorch's test_binary_ufuncs.py and
add_neg_dim_tests in test_torch.py; and a class attribute built from
``import_module(...).__all__`` feeding @parametrize, as TestRefsOpsInfo in
test_ops.py does.

Idioms exercised:
  * a module function that defines a nested test (decorated with
    ``@dtypes(*_types)``, reading the enclosing function's list), returns it
    from a factory closing over the loop variable, and setattr's it under
    an f-string name, for each name in a module-level list;
  * a list of tuples of different lengths unpacked under
    ``if len(decl) == 4: ... elif len(decl) == 5:``, names built with ``+``;
  * a top-level ``for`` loop calling setattr;
  * class attributes: a list, a comprehension over it calling
    ``import_module(f"torch.{path}").__all__``, and
    ``itertools.chain.from_iterable`` of a generator of lists.
"""

import itertools
from importlib import import_module

import torch
from torch.testing._internal.common_device_type import dtypes, instantiate_device_type_tests
from torch.testing._internal.common_utils import (
    instantiate_parametrized_tests,
    parametrize,
    run_tests,
    TestCase,
)

binary_dunders = ["__add__", "__mul__", "__and__"]


class TestGenerated(TestCase):
    def test_plain(self, device):
        self.assertEqual(torch.ones(1, device=device).sum().item(), 1.0)


def generate_dunder_tests(cls):
    class Unknown:
        pass

    _types = [torch.float32, torch.int64]

    def create_test_func(op):
        @dtypes(*_types)
        def test(self, device, dtype):
            t = torch.ones(2, device=device, dtype=dtype)
            self.assertIs(getattr(t, op)(Unknown()), NotImplemented)

        return test

    for op in binary_dunders:
        test_name = f"test_{op}_not_implemented"
        assert not hasattr(cls, test_name), f"{test_name} already in {cls.__name__}"
        setattr(cls, test_name, create_test_func(op))


def make_dim_test(name, shape, dim):
    def dim_test(self, device):
        t = torch.zeros(shape, device=device)
        self.assertEqual(getattr(t, name)(dim).dim() if name != "size" else 0, len(shape) - 1 if name != "size" else 0)

    return dim_test


def add_dim_tests():
    dim_tests = [
        ("sum", (2, 3), -1),
        ("mean", (2, 3, 4), -2, "keep"),
        ("size", (4,), 0),
    ]
    for decl in dim_tests:
        if len(decl) == 3:
            name, shape, dim = decl
        elif len(decl) == 4:
            name, shape, dim, _ = decl
        test_name = "test_" + name + "_dim"
        assert not hasattr(TestGenerated, test_name), "Duplicated test name: " + test_name
        setattr(TestGenerated, test_name, make_dim_test(name, shape, dim))


generate_dunder_tests(TestGenerated)
add_dim_tests()
instantiate_device_type_tests(TestGenerated, globals(), only_for="cpu")


class TestRefNames(TestCase):
    import_paths = ["_refs.fft", "_refs.linalg"]
    module_alls = [(path, import_module(f"torch.{path}").__all__) for path in import_paths]
    ref_names = tuple(
        itertools.chain.from_iterable(
            [f"{path}.{op}" for op in module_all] for path, module_all in module_alls
        )
    )

    @parametrize("op", ref_names)
    def test_ref_exists(self, op):
        path, name = op.rsplit(".", 1)
        self.assertTrue(hasattr(import_module(f"torch.{path}"), name))


instantiate_parametrized_tests(TestRefNames)


class TestLoopAdded(TestCase):
    pass


for _n in (1, 2):
    setattr(TestLoopAdded, f"test_loop_{_n}", lambda self, n=_n: self.assertGreater(n, 0))

for _n in (3, 4):

    def _check(self, n=_n):
        self.assertGreater(n, 2)

    setattr(TestLoopAdded, "test_def_" + str(_n), _check)


if __name__ == "__main__":
    run_tests()
