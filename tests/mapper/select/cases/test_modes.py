"""Tests whose outcomes a config's modes change (tests/mapper/select): one
passes, one fails. Not in any index: the plugin decides their mode from the
node id alone."""

import unittest


class TestModes(unittest.TestCase):
    def test_passes(self):
        self.assertEqual(1 + 1, 2)

    def test_fails(self):
        self.assertEqual(1 + 1, 3)

    def test_fails_mandatory(self):
        self.assertEqual(1 + 1, 3)

    def test_skipped_by_config(self):
        raise AssertionError("a skip mode must keep this from running")
