// Reading `testmap scan --format jsonl` output (docs/scan.md) for ingestion:
// the test records (ids, generic ids, params, decorators, source location
// and hash) and the static op evidence of @ops tests.
#pragma once

#include <string>
#include <vector>

#include "indexer/edge_value.h"

namespace testmap::indexer {

struct ScannedTest {
  std::string nodeid;
  std::string generic_id;
  std::string record_json;  // the scan record as read, plus "origin":"scan"
  std::string device;       // params.device ("cpu", a PrivateUse1 backend's name, or "")
  // Static evidence: the @ops OpInfo name when it names an aten packet
  // (`add`, `_scaled_mm`; dotted names such as `nn.functional.conv2d` are
  // OpInfo-only and stay in params), with the test's device and dtypes.
  std::string static_packet;
  EdgeTuple static_tuple;
  int line = 0;
};

// Whether the first non-blank line of `text` is a scan record.
bool LooksLikeScan(const std::string& text);

// Throws core::InputError naming `path` and the line.
// A last line cut short is dropped with a message in `warnings`.
std::vector<ScannedTest> ParseScan(const std::string& text, const std::string& path,
                                   std::vector<std::string>* warnings = nullptr);

// The run id static edges are stored under: one per index, so a rescan
// replaces (rather than adds to) what an earlier scan said of a test.
inline constexpr char kStaticRunId[] = "static";

}  // namespace testmap::indexer
