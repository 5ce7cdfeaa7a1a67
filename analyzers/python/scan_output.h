// Renders scan results: a table for people, JSON Lines (one test a line)
// and one JSON document for machines, node ids for `pytest $(...)`.
//
// In every format an answer is a head, then each file's tests in file
// order (the file's segment), then a tail. A segment depends only on its
// file's records and the layout, and head and tail only on the files'
// flags, diagnostics and counts: so each file's segment is rendered by the
// thread that scanned it, and the tree output cache keeps them, so that a
// re-scan after an edit renders the changed files' alone
// (tree_output_cache.h).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "analyzers/python/output_bytes.h"
#include "analyzers/python/scan_format.h"
#include "analyzers/python/tree_scanner.h"

namespace testmap::python {

struct ScanLayout {
  ScanFormat format = ScanFormat::kTable;
  size_t table_width = 0;  // kTable: the TEST column's width (TableWidth)
};

// The table's TEST column's width when the longest node id has
// `longest_id` bytes.
size_t TableWidth(size_t longest_id);

// What head and tail say: the files' flags and diagnostics (their records
// are not read), the number of tests, the torch version.
struct ScanSummary {
  const std::vector<FileScan>& files;
  size_t tests = 0;
  const std::string& torch_version;
};

// Appends tests of one file. In kJson each record is preceded by ",\n",
// the answer's first too: ComposeScan leaves that comma out.
void RenderSegment(std::span<const TestRecord> tests, const std::string& file,
                   const ScanLayout& layout, std::string& out);
// A file's segment, rendered on up to `threads` threads when it holds
// many tests (a real tree's largest file holds tens of thousands, and
// rendering them was most of a cold scan's tail, one core idle).
OutputBytes RenderFileSegment(std::span<const TestRecord> tests, const std::string& file,
                              const ScanLayout& layout, int threads);
std::string RenderHead(const ScanSummary& scan, const ScanLayout& layout);
std::string RenderTail(const ScanSummary& scan, const ScanLayout& layout);
// The answer: head, the segments in file order, tail.
OutputBytes ComposeScan(const ScanLayout& layout, const OutputBytes& head,
                        const std::vector<OutputBytes>& segments, const OutputBytes& tail);

// The whole answer from records, in one string (small answers, tests).
std::string RenderScan(const TreeScanResult& result, ScanFormat format);

// One test as a JSON object on one line (no trailing newline).
void AppendTestJson(const TestRecord& t, const std::string& file, std::string& out);

}  // namespace testmap::python
