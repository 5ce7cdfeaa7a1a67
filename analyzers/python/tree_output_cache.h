// The whole rendered output of a scanned tree, kept so that a re-scan of
// an unchanged tree is one stat pass, one read and one write: decoding
// ~90k cached records and rendering them again cost most of a warm scan.
// One file per slot (the tree's place: working directory, rootdir, paths,
// format) under the cache directory, overwritten when the tree changes, so
// entries never pile up. The entry holds the tree's state key (every
// file's stat, the options, the torch snapshot) and is served only when it
// matches exactly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/python/output_bytes.h"
#include "analyzers/python/scanned_test.h"
#include "core/content_hash.h"

namespace testmap::python {

struct TreeOutput {
  // Files with their flags and diagnostics, but no tests (the output has
  // them): what the command reports on stderr and its exit status.
  std::vector<FileScan> files;
  size_t tests = 0;
  OutputBytes output;  // the rendered bytes, left in the entry's file
};

// The entry of `slot` if it was written for `state`; nullopt otherwise
// (missing, another state, unreadable or malformed: all a miss).
std::optional<TreeOutput> ReadTreeOutput(const std::string& dir, const core::Hash128& slot,
                                         const core::Hash128& state);

// Replaces the entry of `slot` (the old one removed, the new one written,
// then renamed into place: a concurrent reader sees the old entry, none,
// and scans, or the new one, never a part of one). Failures are ignored:
// the cache is an optimisation.
void WriteTreeOutput(const std::string& dir, const core::Hash128& slot, const core::Hash128& state,
                     const std::vector<FileScan>& files, size_t tests, const std::string& output);

}  // namespace testmap::python
