// The delta between two sides (diff_side.h): per generic test whether it
// was added, removed, renamed (its body unchanged under another generic id)
// or changed, what changed, and which instantiated ids appeared,
// disappeared or changed underneath it; and the ids to re-trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mapper/diff/diff_side.h"

namespace testmap::diff {

// What changed in a generic test (bits of GenericDelta::changes).
enum Change : uint32_t {
  kBody = 1,        // parameters, annotations, body (source_hash where content is missing)
  kDecorators = 2,  // its own decorators
  kSetup = 4,       // class-level setup it depends on
  kParams = 8,      // the set of instantiated ids (new dtypes, OpInfos, @parametrize values)
  kEntry = 16,      // an OpInfo/ModuleInfo entry: its DecorateInfos, input functions
  kDtypes = 32,     // an OpInfo/ModuleInfo's dtypes on the device
};
// "body", "decorators", ... in bit order.
std::vector<std::string> ChangeNames(uint32_t changes);

enum class Status { kAdded, kRemoved, kRenamed, kChanged, kUnchanged };
const char* StatusName(Status s);  // added | removed | renamed | changed | unchanged

struct GenericDelta {
  Status status = Status::kUnchanged;
  std::string generic_id;    // the new side's (the old side's when removed)
  std::string renamed_from;  // the old generic id, when renamed
  std::string file;          // of generic_id
  int line = 0;              // first line of its first test on that side
  uint32_t changes = 0;
  size_t old_ids = 0, new_ids = 0;
  // Instantiated ids, sorted: only on the new side, only on the old side,
  // and on both with their OpInfo/ModuleInfo entry or dtypes changed. A
  // renamed test's ids are all added (new names) and all removed.
  std::vector<std::string> ids_added, ids_removed, ids_changed;
  // Ids of the new side whose traces no longer hold (sorted): every id of
  // an added or renamed test or of one whose source changed; else the
  // added and changed ids.
  std::vector<std::string> retrace;
};

struct DeltaCounts {
  size_t added = 0, removed = 0, renamed = 0, changed = 0, unchanged = 0;
  size_t ids_added = 0, ids_removed = 0, ids_changed = 0, retrace = 0;
  size_t old_ids = 0, new_ids = 0;
};

struct Delta {
  std::vector<GenericDelta> generics;  // every non-unchanged generic test, by generic id
  DeltaCounts counts;
};

Delta ComputeDelta(const Side& old_side, const Side& new_side);

}  // namespace testmap::diff
