"""pytest-native tests: module-level functions and a plain test class.

Idioms exercised:
  * module-level ``test_*`` functions;
  * @pytest.mark.parametrize without ids (pytest builds ids such as
    ``[2-3]`` and ``[mean]``; non-primitive values such as dtypes get
    ``[dtype0]``, ``[dtype1]``...) and with ``ids=`` as a list and as a
    lambda;
  * two stacked @pytest.mark.parametrize decorators (ids joined with '-',
    the decorator nearest the function first);
  * a plain ``class TestX:`` (no unittest base) with methods, one of them
    parametrized, plus a helper method that is not collected;
  * a pytest fixture.
"""

import pytest
import torch
from torch.testing._internal.common_utils import run_tests


@pytest.fixture
def square_matrix():
    return torch.arange(9.0).reshape(3, 3)


def test_trace(square_matrix):
    assert square_matrix.trace().item() == 12.0


def test_diagonal(square_matrix):
    assert torch.equal(square_matrix.diagonal(), torch.tensor([0.0, 4.0, 8.0]))


@pytest.mark.parametrize("rows,cols", [(2, 3), (4, 4), (1, 8)])
def test_ones_sum(rows, cols):
    assert torch.ones(rows, cols).sum().item() == rows * cols


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32])
def test_zeros_dtype(dtype):
    assert torch.zeros(3, dtype=dtype).dtype == dtype


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_l1_loss(reduction):
    a = torch.zeros(4)
    b = torch.ones(4)
    expected = 1.0 if reduction == "mean" else 4.0
    assert torch.nn.functional.l1_loss(a, b, reduction=reduction).item() == expected


@pytest.mark.parametrize(
    "size,expected",
    [(3, 3.0), (5, 10.0)],
    ids=["small", "medium"],
)
def test_triu_count(size, expected):
    assert torch.triu(torch.ones(size, size), diagonal=1).sum().item() == expected


@pytest.mark.parametrize("dim", [0, 1], ids=lambda d: f"dim{d}")
@pytest.mark.parametrize("descending", [False, True])
def test_sort_is_monotonic(dim, descending):
    x = torch.randn(4, 5)
    values, _ = torch.sort(x, dim=dim, descending=descending)
    diffs = values.diff(dim=dim)
    assert bool((diffs <= 0).all()) if descending else bool((diffs >= 0).all())


class TestSoftmax:
    def _reference(self, x, dim):
        e = torch.exp(x - x.max(dim=dim, keepdim=True).values)
        return e / e.sum(dim=dim, keepdim=True)

    def test_rows_sum_to_one(self):
        out = torch.softmax(torch.randn(3, 7), dim=-1)
        torch.testing.assert_close(out.sum(dim=-1), torch.ones(3))

    def test_matches_reference(self):
        x = torch.randn(2, 5)
        torch.testing.assert_close(torch.softmax(x, dim=1), self._reference(x, 1))

    @pytest.mark.parametrize("temperature", [0.5, 1.0, 2.0])
    def test_temperature(self, temperature):
        x = torch.randn(6)
        out = torch.softmax(x / temperature, dim=0)
        torch.testing.assert_close(out.sum(), torch.tensor(1.0))


if __name__ == "__main__":
    run_tests()
