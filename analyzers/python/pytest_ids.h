// pytest's own parametrization: `@pytest.mark.parametrize` ids as
// _pytest/python.py builds them (value-derived ids, ids=, pytest.param(id=),
// de-duplication suffixes), for plain pytest functions and methods.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "analyzers/python/expression_evaluator.h"

namespace testmap::python {

struct PytestCase {
  std::string id;  // the part inside [...]
  std::vector<std::pair<std::string, Value>> values;
  std::vector<std::string> marks;
};

struct PytestExpansion {
  std::vector<PytestCase> cases;  // one empty-id case when not parametrized
  std::vector<std::pair<int, std::string>> problems;
  bool parametrized = false;
};

// Expands the `pytest.mark.parametrize` decorators among `decorators`
// (function decorators top to bottom, then class decorators top to bottom).
PytestExpansion ExpandPytestParametrize(Evaluator& ev,
                                        const std::vector<TSNode>& function_decorators,
                                        const std::vector<TSNode>& class_decorators);

// pytest's ascii_escaped() of a str id.
std::string PytestAsciiEscaped(const std::string& utf8);

}  // namespace testmap::python
