# Function and method bodies that only a lexer that knows Python's strings,
# f-strings, comments, brackets and continuations can step over. `testmap
# scan` does not parse the bodies of class methods and module-level
# functions up front (docs/scan.md), only those module code calls: what it
# collects here must still be exactly what pytest collects, no test lost or
# invented by a body that looks like the end of a function.
import unittest

import pytest


def _cases():
    """Called by a decorator below: its body is parsed when it runs."""
    names = """
def test_not_collected():
    pass
"""
    return [
1, 2] + [len(names) > 0]


def _case_id(value):
    """An ids function: run for each value."""
    return "case_" + str(value)


class TestStringsThatLookLikeCode(unittest.TestCase):
    def test_dedented_triple_string(self):
        source = """
class TestNotACase(unittest.TestCase):
    def test_not_a_test(self):
        pass
"""
        self.assertIn("test_not_a_test", source)

    def test_single_quoted_triple_string(self):
        text = '''
    def test_also_not_a_test(self):
'''
        self.assertTrue(text)

    def test_fstrings_with_nested_quotes(self):
        d, w = {"k": "v"}, 4
        s = f"{d['k']:>{w}} {d!r} {{literal}} {'''x'''}"
        self.assertTrue(s)

    def test_raw_and_escaped_quotes(self):
        r = r'\'' + '\\' + "\"" + r"\d+"
        self.assertEqual(len(r), 7)


class TestLayoutThatLooksLikeADedent(unittest.TestCase):
    def test_brackets_at_column_zero(self):
        values = [
1, 2,
3]
        total = 1 + \
2
        self.assertEqual(sum(values) + total, 9)

    def test_trailing_comments(self):
        self.assertTrue(True)  # a comment on the last line
# a comment at column zero inside the class

    # a comment between methods
    def test_docstring_only(self):
        """Nothing but a docstring."""

    def test_one_line(self): self.assertTrue(True)

    async def helper(self):
        return 1

    @unittest.skip("decorated below a body with a string")
    def test_decorated(self):
        pass


def test_module_function_after_classes():
    assert "def test_inside_a_string():"


@pytest.mark.parametrize("x", _cases(), ids=_case_id)
def test_parametrized_by_a_module_function(x):
    s = f"""
def test_in_an_fstring_{x}():
"""
    assert s


def _make_test(value):
    def test(self):
        self.assertTrue(value)
    return test


class TestMadeByAModuleFunction(unittest.TestCase):
    pass


for _v in (1, 2):
    setattr(TestMadeByAModuleFunction, f"test_made_{_v}", _make_test(_v))
