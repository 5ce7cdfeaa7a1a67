# String literals whose value is not their source text: every escape Python
# decodes in a str (octal, \x, \u, \U, the one-letter ones, a line
# continuation, an escape it does not know), in parametrize values whose
# ids pytest builds from the decoded text. `testmap scan` must print what
# pytest collects (tests/analyzers/python/scan_command_test.cc).
import pytest


@pytest.mark.parametrize(
    "s",
    [
        "\u00e9",
        "\x41\x42",
        "\101\0",
        "\U0001F600",
        "tab\there",
        "line\
continued",
        "caf\u00e9 \\ end",
        "\a\b\f\v",
        r"raw\u00e9",
        """triple\x21""",
    ],
)
def test_escaped(s):
    assert isinstance(s, str)


@pytest.mark.parametrize("s", [f"f\u00e9{1}", f"{2}\x41"])
def test_escaped_in_fstrings(s):
    assert s
