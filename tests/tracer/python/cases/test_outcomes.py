"""One test per pytest outcome, for the plugin's outcome mapping."""

import pytest
import torch


@pytest.fixture
def broken_teardown():
    yield
    raise RuntimeError("teardown fails")


@pytest.fixture
def broken_setup():
    raise RuntimeError("setup fails")


def test_passed():
    torch.ones(2).neg()


def test_failed():
    torch.ones(2).abs()
    assert False


def test_skipped():
    pytest.skip("not here")


@pytest.mark.xfail(reason="known", strict=False)
def test_xfailed():
    assert False


@pytest.mark.xfail(reason="known", strict=False)
def test_xpassed():
    pass


def test_error_in_setup(broken_setup):
    pass


def test_error_in_teardown(broken_teardown):
    torch.zeros(1).exp()
