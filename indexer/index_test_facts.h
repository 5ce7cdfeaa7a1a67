// Every test of the index with what admission and configs decide on: its
// identity (node id, generic test), its parameters (device, dtypes, OpInfo,
// ModuleInfo, other values) and its latest outcome, in one pass over the
// `tests` and `outcomes` column families (both ordered by node id, so the
// walk is a merge), and `timings` for what timing files say of it. Records parse with simdjson: a
// PyTorch index holds tens of thousands of scan records.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "indexer/index_store.h"

namespace testmap::indexer {

struct TestFacts {
  std::string nodeid;
  std::string generic_id;  // "" for a test only traced
  std::string file;
  std::string generic_class, generic_method;  // the template's names ("" when only traced)
  bool scanned = false;                       // origin: a scan record, not only a trace
  std::string device;                         // params.device
  std::vector<std::string> dtypes;            // params.dtypes
  std::string opinfo, op_variant, module;     // params.op, .op_variant, .module
  // The rest of params (training, values) as minified JSON, so that two
  // instantiations of one generic test compare by their parameters.
  std::string other_params;
  // The latest outcome (by start time) over all runs; "" when never run.
  std::string outcome;
  std::optional<double> duration;
  size_t runs = 0;  // outcome records
  // What ingested timing files (JUnit XML, .test_durations) say of this
  // node id, the worst first: failed, error, passed, skipped; "" when none.
  std::string file_outcome;

  // Everything of params but the device: what joins a backend's own
  // instantiation to the CPU one that was traced.
  std::string ParamsWithoutDevice() const;
};

// One test's facts from its record alone (no outcomes): what a pytest
// plugin needs per collected item. nullopt when the index has no record.
std::optional<TestFacts> ReadTestFacts(const IndexStore& store, const std::string& nodeid);

// Whether a test record (JSON text) is a scan record (TestFacts::scanned);
// false for one that does not parse.
bool IsScanRecord(std::string_view record);

// Calls `fn` for every test, in node id order. Throws core::InputError for
// a record that does not parse.
void ForEachTestFacts(const IndexStore& store, const std::function<void(TestFacts&&)>& fn);

}  // namespace testmap::indexer
