# Classes bound at import time through globals()[...] or made with
# type(name, bases, {}), and tests set on them by a top-level setattr:
# pytest collects a class by the name it is bound to. `testmap scan` must print what pytest collects
# (tests/analyzers/python/scan_command_test.cc).
from torch.testing._internal.common_utils import TestCase


class BaseChecks(TestCase):
    def test_one(self):
        pass

    def test_two(self):
        pass


Renamed = type("NotTheBoundName", (BaseChecks,), {})
globals()["ByStringChecks"] = type("ByStringChecks", (BaseChecks,), {})


def register(name, base):
    globals()[name] = type(name, (base,), {})


register("RegisteredChecks", BaseChecks)


def _three(self):
    pass


# On the made class only: BaseChecks and its other subclasses do not get it.
setattr(RegisteredChecks, "test_three", _three)  # noqa: F821

for suffix in ["A", "B"]:
    globals()["Looped" + suffix] = type("Looped" + suffix, (BaseChecks,), {})

# A name bound to something that is not a class is not collected.
globals()["Hidden"] = BaseChecks
globals()["Hidden"] = None

# The loop variable stays bound to the last class: pytest collects it under
# that name too.
for base in [BaseChecks]:
    globals()["Sub" + base.__name__] = type("Sub" + base.__name__, (base,), {})
