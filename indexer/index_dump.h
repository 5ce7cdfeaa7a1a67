// `testmap index dump`: every key and value of every column family as
// text, in key order. Two indexes with the same dump hold the same data;
// the crash-safety test compares dumps to tell "old state" from "new
// state" from "a mix".
#pragma once

#include <ostream>

#include "indexer/index_store.h"

namespace testmap::indexer {

// One line per key: CF '\t' KEY '\t' VALUE, with '\0' in keys shown as '|'
// and newlines in values as "\n".
void DumpIndex(const IndexStore& store, std::ostream& out);

}  // namespace testmap::indexer
