// Renders scan results: a table for people, JSON Lines (one test a line)
// and one JSON document for machines, node ids for `pytest $(...)`.
#pragma once

#include <string>

#include "analyzers/python/scan_format.h"
#include "analyzers/python/tree_scanner.h"

namespace testmap::python {

// The scan's answer in `format`, in one string (the command writes it once).
std::string RenderScan(const TreeScanResult& result, ScanFormat format);

// Whether `format` is a run of per-file parts (jsonl, nodeids), which the
// tree scan renders file by file in its worker threads.
bool RendersPerFile(ScanFormat format);
// One file's part of RenderScan's answer in a per-file format.
void AppendFileRecords(const FileScan& file, ScanFormat format, std::string& out);

// One test as a JSON object on one line (no trailing newline).
void AppendTestJson(const TestRecord& t, const std::string& file, std::string& out);

}  // namespace testmap::python
