// `testmap logs parse`: raw TORCH_LOGS text as CI logs keep it, parsed
// (torch_logs_parser.h) into the op records the tracer writes for the
// compile path, one per (graph, op), each with the graph it came from: its
// kind and artifact, compile id (recompiles differ), rank, and the file and
// line where the log printed it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tracer/torch_logs_parser.h"

namespace testmap::tracer {

struct LogFile {
  std::string path;
  TorchLogsResult result;
};

// Reads and parses every file. Throws core::InputError for a file that
// cannot be read (missing, a directory, past the size limit); what the
// parser could not read is in each result's diagnostics.
std::vector<LogFile> ParseLogFiles(const std::vector<std::string>& paths);

// "FILE:LINE: message" for every diagnostic, in file order.
std::vector<std::string> LogDiagnostics(const std::vector<LogFile>& files);

// Formats: table (default), json (one document: files, their graphs and
// ops), jsonl (one op record a line, with its graph's fields).
void RenderLogFiles(const std::vector<LogFile>& files, const std::string& format,
                    std::ostream& out);

}  // namespace testmap::tracer
