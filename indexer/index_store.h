// The RocksDB store behind a testmap index (layout: index_layout.h).
//
// Readers open read-only: they take no lock, so any number of `testmap
// query` processes run while an ingest writes, and each sees the index as
// of its open (ingestion commits atomically, so that is the old or the new
// state, never a mix). One writer at a time: a second ingest waits for the
// first.
//
// RocksDB's headers stay in index_store.cc; this header is cheap to include.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "indexer/index_batch.h"
#include "indexer/index_layout.h"

namespace testmap::indexer {

enum class OpenMode {
  kRead,   // the index must exist
  kWrite,  // created when missing; waits (up to a minute) for another writer
};

// Forward iteration over one column family; Seek positions at the first
// key >= target.
class IndexCursor {
 public:
  virtual ~IndexCursor() = default;
  virtual void Seek(std::string_view target) = 0;
  virtual bool Valid() const = 0;
  virtual void Next() = 0;
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
};

// A set of column families: CfBit(Cf::kOpTests) | CfBit(Cf::kTests).
using CfSet = uint32_t;
constexpr CfSet CfBit(Cf cf) { return CfSet{1} << static_cast<int>(cf); }
inline constexpr CfSet kAllCfs = (CfSet{1} << kCfCount) - 1;

// Creating an index costs a few dozen synced writes (a fifth of a second,
// nearly all of it waiting for the disk). An ingest overlaps that with
// reading its inputs: made before them, a PreparedIndex for `dir` builds an
// empty index beside `dir` on a thread of its own when `dir` holds no index
// yet, and Open(dir, kWrite, ..., &prepared) moves it in where it would
// otherwise create one. Left unused (bad input: the ingest stops before it
// opens the index), its destructor removes what it built, so `dir` never
// changes. A kill leaves the `DIR.creating-PID` folder that Open removes
// once that process is gone.
class PreparedIndex {
 public:
  explicit PreparedIndex(const std::string& dir);
  ~PreparedIndex();
  PreparedIndex(const PreparedIndex&) = delete;
  PreparedIndex& operator=(const PreparedIndex&) = delete;

  // Waits for the build; its path, or "" when nothing was built. Throws
  // core::InputError when the build failed.
  std::string Take();

 private:
  std::thread builder_;
  std::string tmp_;
  std::exception_ptr error_;
};

class IndexStore {
 public:
  // Opens the index in `dir`. Throws core::InputError when `dir` is missing (kRead),
  // is not a testmap index, or was written by a newer schema.
  //
  // `cfs` (kRead only; a writer opens all): the column families the reader
  // will read, `default` always included. Each one left out is table files
  // and a memtable a short-lived reader (a `query` process) does not set
  // up; reading one left out is a programming error (std::logic_error).
  //
  // `prepared` (kWrite): the empty index built for `dir` while the inputs
  // were read, moved in when `dir` needs creating.
  static std::unique_ptr<IndexStore> Open(const std::string& dir, OpenMode mode,
                                          CfSet cfs = kAllCfs, PreparedIndex* prepared = nullptr);
  virtual ~IndexStore() = default;

  virtual const std::string& dir() const = 0;

  virtual std::optional<std::string> Get(Cf cf, std::string_view key) const = 0;

  // Calls `fn(key, value)` for every key that starts with `prefix`, in key
  // order, until it returns false.
  virtual void Scan(Cf cf, std::string_view prefix,
                    const std::function<bool(std::string_view, std::string_view)>& fn) const = 0;

  virtual std::unique_ptr<IndexCursor> NewCursor(Cf cf) const = 0;

  // Writes `batch` atomically: one SST file per column family, all ingested
  // in a single IngestExternalFiles call (one MANIFEST record), so a crash
  // at any point leaves the index with all of it or none of it. Keys that
  // already hold the same value change nothing. kWrite only.
  //
  // The counters (index_counters.h) must describe the index after the
  // commit: a batch that does not write the `counters` key (a Put, or a
  // producer of the `default` column family, which must write it) blanks
  // it, so readers count by walking until the next ingest stores them.
  virtual void Commit(const IndexBatch& batch) = 0;

  // Deletes `keys` in one atomic write (all of them or none survive a
  // crash), then compacts the column families they were in so that the
  // space is given back (`testmap index prune`). kWrite only.
  virtual void Delete(const std::vector<std::pair<Cf, std::string>>& keys) = 0;
};

}  // namespace testmap::indexer
