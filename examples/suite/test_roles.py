"""Where in a test an op runs: its role (docs/trace-format.md).

Idioms exercised:
  * a unittest-style test whose body calls only ``view`` and checks the
    result with ``assertEqual`` on tensors: assertEqual's own comparison ops
    (abs, sub, eq, isclose's helpers...) are role ``assert``, the tensors
    made in ``setUp`` role ``setup``, and only ``view`` is role ``test``;
  * ``torch.testing.make_tensor`` (role ``inputs``) and
    ``torch.testing.assert_close`` (role ``assert``) in a plain pytest test;
  * a pytest fixture that makes a tensor (setup) and changes it after the
    test (teardown).
"""

import pytest
import torch
from torch.testing import assert_close, make_tensor
from torch.testing._internal.common_utils import run_tests, TestCase


class TestViewRoles(TestCase):
    def setUp(self):
        super().setUp()
        self.flat = torch.arange(12.0)
        self.expected = torch.arange(12.0).reshape(3, 4)

    def test_view_checked_with_assert_equal(self):
        self.assertEqual(self.flat.view(3, 4), self.expected)


def test_make_tensor_and_assert_close():
    a = make_tensor((3,), device="cpu", dtype=torch.float32)
    assert_close(a.neg().neg(), a)


@pytest.fixture
def ones():
    t = torch.ones(4)
    yield t
    t.zero_()


def test_fixture_setup_and_teardown(ones):
    ones.mul_(2)


if __name__ == "__main__":
    run_tests()
