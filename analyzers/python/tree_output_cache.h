// The whole rendered output of a scanned tree, kept so that a re-scan of
// an unchanged tree is one stat pass, one read and one write (decoding
// ~90k cached records and rendering them again cost most of a warm scan),
// and a re-scan after an edit scans and renders only the files that
// changed, taking every other file's part of the answer (its segment,
// scan_output.h) from the entry.
//
// One entry per slot (the tree's place: working directory, rootdir, paths,
// format) under the cache directory, replaced when the tree changes, so
// entries never pile up. An entry is two files: `SLOT.seg`, segments' bytes
// (tens of megabytes on a large tree), and `SLOT.out`, the index: the
// tree's state key (every file's stat, the options, the torch snapshot),
// each file's stat, summary and segment (a range of the `.seg` file, or
// bytes of its own), and the head and tail. After an edit only a new index
// is written, holding the changed files' segments and pointing at the
// unchanged ones in the `.seg` file as it is: writing tens of megabytes
// into fresh page cache cost most of such a re-scan (docs/scan.md). The
// `.seg` file is written anew when less than half of the answer would be
// left in it.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "analyzers/python/output_bytes.h"
#include "analyzers/python/scan_output.h"
#include "analyzers/python/scanned_test.h"
#include "core/content_hash.h"

namespace testmap::python {

// What a file's stat says of its bytes: size, mtime and ctime in ns,
// inode, device, mode. Equal stats mean equal bytes for a file that was
// not modified in the seconds before it was scanned (tree_scanner.cc).
using FileStat = std::array<uint64_t, 8>;

struct TreeOutputFile {
  std::string path;  // as discovered: the key a re-scan matches
  FileStat stat{};
  FileScan summary;  // its node-id path, flags and diagnostics; no tests
  uint64_t tests = 0;
  uint64_t longest_id = 0;  // bytes of its longest node id (the table's width)
  OutputBytes segment;
  // Where the segment lies in the entry's `.seg` file, when it lies there
  // (ReadTreeOutput sets it); a new index can point at it there.
  std::optional<uint64_t> seg_offset;
};

struct TreeOutput {
  core::Hash128 state;    // the whole tree's state it answers
  core::Hash128 context;  // what segments depend on beyond their own file
  ScanLayout layout;
  OutputBytes head, tail;
  std::vector<TreeOutputFile> files;  // in file order
  // The `.seg` file's identity, which the index names (zero: none).
  core::Hash128 seg_id{};
};

// The entry of `slot`, whatever state it was written for: the caller
// compares states (a whole answer) and contexts (segments of unchanged
// files). nullopt when missing, unreadable or malformed: all a miss.
std::optional<TreeOutput> ReadTreeOutput(const std::string& dir, const core::Hash128& slot);

// A new `.seg` file written while a scan goes on, by a thread of its own:
// each file's segment as soon as it and every file before it are rendered,
// so that tens of megabytes are not written after the scan on one core
// while the other idles, nor by the worker whose file was the last to
// finish (docs/scan.md). Add is called from any thread, once for every
// file; Finish waits for the writes and renames the file into place, after
// which WriteTreeOutput with each file's seg_offset set to Offset(i) and
// seg_id to the id given writes only the index. Without Finish the file is
// removed.
class SegmentWriter {
 public:
  // Removes the slot's entry and begins its new `.seg` file; null when it
  // cannot be created.
  static std::unique_ptr<SegmentWriter> Begin(const std::string& dir, const core::Hash128& slot,
                                              const core::Hash128& id, size_t files);
  ~SegmentWriter();
  SegmentWriter(const SegmentWriter&) = delete;
  SegmentWriter& operator=(const SegmentWriter&) = delete;

  void Add(size_t file, const OutputBytes& segment);
  // True when every file's segment was written and the file renamed.
  bool Finish();
  uint64_t Offset(size_t file) const { return offsets_[file]; }

 private:
  SegmentWriter(int fd, std::string tmp, std::string path, size_t files);
  void WriteQueued();  // the writer thread
  void Stop();         // lets the writer thread finish its queue, and joins it

  int fd_;
  std::string tmp_, path_;
  std::mutex mu_;
  std::condition_variable queued_;
  std::vector<std::optional<OutputBytes>> waiting_;  // given, before an earlier file was
  std::vector<uint64_t> offsets_;
  size_t next_ = 0;                // the first file not yet queued
  uint64_t end_ = 0;               // where the next queued segment goes
  std::deque<OutputBytes> queue_;  // in file order, for the writer thread
  bool stopping_ = false, failed_ = false, finished_ = false;
  std::thread writer_;
};

// Replaces the entry of `slot` with `entry`. Segments that lie in the
// current `.seg` file (seg_offset set, with `entry.seg_id` naming it) stay
// there when they are at least half of the answer's bytes: only a new
// index is written. Otherwise the `.seg` file is written anew, then the
// index. Each file is written whole and renamed into place: a concurrent
// reader sees the old entry, the new one, or an index whose `.seg` file is
// not its own (a miss), never a part of one. Failures are ignored: the
// cache is an optimisation.
void WriteTreeOutput(const std::string& dir, const core::Hash128& slot, const TreeOutput& entry);

}  // namespace testmap::python
