# A module function that happens to be called make_test_cls_with_patches is
# not torch's helper: the scan recognises torch's by the name the imports
# resolve, so this one runs as the module's own code (it returns the class
# it is given, which pytest then collects under a second name).
# `testmap scan` must print what pytest collects
# (tests/analyzers/python/scan_command_test.cc).
from torch.testing._internal.common_utils import TestCase


def make_test_cls_with_patches(cls, prefix, suffix, *patches):
    return cls


class LookalikeChecks(TestCase):
    def test_same(self):
        pass


Unchanged = make_test_cls_with_patches(LookalikeChecks, "Never", "_never")
