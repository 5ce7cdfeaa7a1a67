// Renders scan results: a table for people, JSON Lines (one test a line)
// and one JSON document for machines, node ids for `pytest $(...)`.
#pragma once

#include <string>

#include "analyzers/python/scan_format.h"
#include "analyzers/python/tree_scanner.h"

namespace testmap::python {

// The scan's answer in `format`, in one string (the command writes it once).
std::string RenderScan(const TreeScanResult& result, ScanFormat format);

// One test as a JSON object on one line (no trailing newline).
void AppendTestJson(const TestRecord& t, const std::string& file, std::string& out);

}  // namespace testmap::python
