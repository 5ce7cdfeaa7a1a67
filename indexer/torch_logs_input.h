// A TORCH_LOGS log as trace input for one test (`testmap ingest --test ID
// LOG`): its graphs' ATen ops become that test's compile evidence, under a
// run of their own that names the log, as if `testmap trace
// --compile-logs` had recorded them. The parser is tracer/torch_logs_parser.h.
#pragma once

#include <string>

#include "indexer/trace_input.h"

namespace testmap::indexer {

// `text` is the log at `path`; `test` the node id it belongs to. Lines the
// parser could not read become warnings ("PATH:LINE: message"); what was
// whole is kept. The run id hashes the log and the test, so the same log
// ingested again for the same test changes nothing. Throws core::InputError
// for an empty test id or one with a NUL or a newline.
TraceInput ParseTorchLogsForTest(const std::string& text, const std::string& path,
                                 const std::string& test);

}  // namespace testmap::indexer
