// Scanning one Python test file: decode checks, parse, model, collect.
#pragma once

#include <cstdint>
#include <string>

#include "analyzers/python/collector.h"
#include "analyzers/python/expression_evaluator.h"
#include "analyzers/python/scanned_test.h"

namespace testmap::python {

// Syntax trees deeper than this are refused before any recursive walk.
inline constexpr uint32_t kMaxSyntaxDepth = 1000;

// Scans `source` (the file's bytes) as the module at `rel_path` (relative to
// the scan root, as in node ids). Never throws on bad input: an unreadable
// module comes back with `skipped` set and an error diagnostic.
FileScan ScanPythonSource(TSParser* parser, const std::string& rel_path, std::string source,
                          const SnapshotSource& snapshot, const CollectOptions& options);

}  // namespace testmap::python
