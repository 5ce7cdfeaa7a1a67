// Renders scan results: a table for people, JSON Lines (one test a line)
// and one JSON document for machines, node ids for `pytest $(...)`.
#pragma once

#include <ostream>
#include <string>

#include "analyzers/python/tree_scanner.h"

namespace testmap::python {

enum class ScanFormat { kTable, kJsonl, kJson, kNodeids };

void WriteScan(const TreeScanResult& result, ScanFormat format, std::ostream& out);

// One test as a JSON object on one line (no trailing newline).
void AppendTestJson(const TestRecord& t, const std::string& file, std::string& out);

}  // namespace testmap::python
