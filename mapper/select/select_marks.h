// The marks testmap_select puts on a collected test, named in one place:
//   op__<name>        an operator packet the test runs, `aten` left out
//                     (`op__add`, `op___scaled_mm`); other namespaces keep
//                     theirs (`op__prims__add`);
//   dtype__<dtype>    a dtype it runs an operator with (`dtype__bfloat16`).
// A test carries the packets `testmap query --op` would match it by: every
// edge of the index, static evidence included, observations in the roles
// asked for (by default `test`, as query's: an `abs` that assertEqual ran
// marks nothing), so that `pytest -m op__X` selects what `testmap query
// --op X --format nodeids` lists (with `--testmap-role R`, what `query
// --role R` lists). A backend's
// own instantiation (`TestFooPRIVATEUSE1::test_x_toy_float32`, scanned,
// never traced) carries the marks of its traced twin: the test of the same
// generic test and params, as admission joins them.
#pragma once

#include <set>
#include <string>

#include "indexer/index_reader.h"
#include "indexer/index_test_facts.h"

namespace testmap::select {

std::string OpMark(const std::string& packet);  // "aten::add" -> "op__add"
std::string DtypeMark(const std::string& dtype);

// The marks of one test, sorted, from its observations in `roles`
// (canonical role names, core::kRoles). `facts` is its record, when the
// index has one.
std::set<std::string> MarksOf(const indexer::IndexReader& index, const std::string& nodeid,
                              const indexer::TestFacts* facts, const std::set<std::string>& roles);

}  // namespace testmap::select
