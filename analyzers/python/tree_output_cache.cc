#include "analyzers/python/tree_output_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "analyzers/python/byte_record.h"
#include "analyzers/python/scan_cache.h"

namespace testmap::python {
namespace {

// Bump when a file's layout changes.
//   SLOT.out: magic, state, context, seg id, inline size N, N inline bytes
//             (head, tail, segments not in the .seg file), then the summary.
//   SLOT.seg: magic, its id, then segments' bytes.
constexpr char kIndexMagic[8] = {'t', 'm', 't', 'r', 'e', 'e', '0', '4'};
constexpr char kSegMagic[8] = {'t', 'm', 's', 'e', 'g', 's', '0', '1'};
constexpr size_t kIndexHead = 8 + 16 + 16 + 16 + 8;
constexpr size_t kSegHead = 8 + 16;

std::string EntryPath(const std::string& dir, const core::Hash128& slot, const char* suffix) {
  return dir + "/" + core::HexDigest(slot) + suffix;
}

// Reads exactly `n` bytes at the file's position.
bool ReadExactly(int fd, size_t n, std::string* out) {
  out->resize(n);
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, out->data() + got, n - got);
    if (r <= 0) return false;
    got += static_cast<size_t>(r);
  }
  return true;
}

bool Hash(ByteReader& r, core::Hash128* h) { return r.U64(&h->high) && r.U64(&h->low); }
void Hash(ByteWriter& w, const core::Hash128& h) {
  w.U64(h.high);
  w.U64(h.low);
}

// Where a piece of the answer lies: in the index's inline bytes or in the
// .seg file, at an offset of that file.
enum Where : uint64_t { kInline = 0, kSeg = 1 };

// The .seg file's first bytes: its magic and the id an index names it by.
OutputBytes SegHead(const core::Hash128& id) {
  ByteWriter head;
  head.out.assign(kSegMagic, 8);
  Hash(head, id);
  return OutputBytes(std::move(head.out));
}

// Removes the slot's entry before a new .seg file is written: it is stale
// (its state is not the new one), and once removed its page cache is free,
// so the new file's tens of megabytes reuse those pages instead of ones the
// kernel has not touched yet, which cost several times more to fill on a
// virtual machine (docs/scan.md). A reader in between misses, and scans.
void RemoveEntry(const std::string& dir, const core::Hash128& slot) {
  unlink(EntryPath(dir, slot, ".out").c_str());
  unlink(EntryPath(dir, slot, ".seg").c_str());
}

// Where a file is written before it is renamed to `path`.
std::string TempPath(const std::string& path) { return path + ".tmp" + std::to_string(getpid()); }

// Writes `parts` to a new file at `path` (through a temporary, renamed
// into place); false when any step fails (nothing is left behind then).
bool WriteFile(const std::string& path, const std::vector<const OutputBytes*>& parts) {
  std::string tmp = TempPath(path);
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  bool ok = true;
  for (const OutputBytes* part : parts) ok = ok && part->WriteTo(fd);
  ok = close(fd) == 0 && ok;
  if (!ok || rename(tmp.c_str(), path.c_str()) != 0) {
    unlink(tmp.c_str());
    return false;
  }
  return true;
}

}  // namespace

std::optional<TreeOutput> ReadTreeOutput(const std::string& dir, const core::Hash128& slot) {
  int fd = open(EntryPath(dir, slot, ".out").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return std::nullopt;
  }
  // Owned from here on: closed on a miss, kept open by the output's pieces.
  const OutputBytes index = OutputBytes::FileRange(fd, 0, static_cast<uint64_t>(st.st_size));
  std::string head, rest;
  if (!ReadExactly(fd, kIndexHead, &head) || std::memcmp(head.data(), kIndexMagic, 8) != 0)
    return std::nullopt;
  ByteReader h(std::string_view(head).substr(8));
  TreeOutput t;
  uint64_t inline_size;
  if (!Hash(h, &t.state) || !Hash(h, &t.context) || !Hash(h, &t.seg_id) || !h.U64(&inline_size) ||
      static_cast<uint64_t>(st.st_size) < kIndexHead + inline_size)
    return std::nullopt;
  // Only the summary is read; the bytes stay in the files (output_bytes.h).
  if (lseek(fd, static_cast<off_t>(kIndexHead + inline_size), SEEK_SET) < 0 ||
      !ReadExactly(fd, static_cast<size_t>(st.st_size) - kIndexHead - inline_size, &rest))
    return std::nullopt;
  std::optional<OutputBytes> seg;  // opened when a segment lies there
  auto piece = [&](ByteReader& r, OutputBytes* out, std::optional<uint64_t>* seg_offset) {
    uint64_t where, offset, size;
    if (!r.U64(&where) || !r.U64(&offset) || !r.U64(&size)) return false;
    if (where == kInline) {
      if (offset > inline_size || size > inline_size - offset) return false;
      *out = index.Range(kIndexHead + offset, size);
      return true;
    }
    if (where != kSeg || !seg_offset) return false;
    if (!seg) {
      int sfd = open(EntryPath(dir, slot, ".seg").c_str(), O_RDONLY | O_CLOEXEC);
      struct stat sst;
      if (sfd < 0) return false;
      if (fstat(sfd, &sst) != 0) {
        close(sfd);
        return false;
      }
      seg = OutputBytes::FileRange(sfd, 0, static_cast<uint64_t>(sst.st_size));
      std::string seg_head;
      if (!ReadExactly(sfd, kSegHead, &seg_head) || std::memcmp(seg_head.data(), kSegMagic, 8))
        return false;
      ByteReader sh(std::string_view(seg_head).substr(8));
      core::Hash128 id;
      if (!Hash(sh, &id) || !(id == t.seg_id)) return false;  // not this index's
    }
    if (offset < kSegHead || offset > seg->size() || size > seg->size() - offset) return false;
    *out = seg->Range(offset, size);
    *seg_offset = offset;
    return true;
  };
  ByteReader c(rest);
  uint64_t format, width, nfiles;
  if (!c.U64(&format) || format > static_cast<uint64_t>(ScanFormat::kNodeids) || !c.U64(&width) ||
      !piece(c, &t.head, nullptr) || !piece(c, &t.tail, nullptr) || !c.U64(&nfiles) ||
      nfiles > c.left())
    return std::nullopt;
  t.layout = {static_cast<ScanFormat>(format), static_cast<size_t>(width)};
  t.files.resize(nfiles);
  for (auto& f : t.files) {
    std::string_view path, node_path, summary;
    if (!c.Str(&path) || !c.Str(&node_path)) return std::nullopt;
    f.path = path;
    for (uint64_t& field : f.stat)
      if (!c.U64(&field)) return std::nullopt;
    if (!c.U64(&f.tests) || !c.U64(&f.longest_id) || !piece(c, &f.segment, &f.seg_offset) ||
        !c.Str(&summary) || !DecodeFileScan(summary, std::string(node_path), &f.summary))
      return std::nullopt;
  }
  if (!c.done()) return std::nullopt;
  return t;
}

SegmentWriter::SegmentWriter(int fd, std::string tmp, std::string path, size_t files)
    : fd_(fd), tmp_(std::move(tmp)), path_(std::move(path)), waiting_(files), offsets_(files) {}

std::unique_ptr<SegmentWriter> SegmentWriter::Begin(const std::string& dir,
                                                    const core::Hash128& slot,
                                                    const core::Hash128& id, size_t files) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  RemoveEntry(dir, slot);
  std::string path = EntryPath(dir, slot, ".seg");
  std::string tmp = TempPath(path);
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return nullptr;
  std::unique_ptr<SegmentWriter> w(new SegmentWriter(fd, tmp, path, files));
  OutputBytes head = SegHead(id);
  w->end_ = head.size();
  w->queue_.push_back(std::move(head));
  w->writer_ = std::thread([p = w.get()] { p->WriteQueued(); });
  return w;
}

SegmentWriter::~SegmentWriter() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.clear();  // not finished: nothing more is worth writing
  }
  Stop();
  if (fd_ >= 0) close(fd_);
  if (!finished_) unlink(tmp_.c_str());
}

void SegmentWriter::Add(size_t file, const OutputBytes& segment) {
  std::lock_guard<std::mutex> lock(mu_);
  waiting_[file] = segment;
  bool more = false;
  for (; next_ < waiting_.size() && waiting_[next_]; ++next_) {
    offsets_[next_] = end_;
    end_ += waiting_[next_]->size();
    queue_.push_back(std::move(*waiting_[next_]));
    waiting_[next_].reset();
    more = true;
  }
  if (more) queued_.notify_one();
}

void SegmentWriter::WriteQueued() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, and nothing left
    OutputBytes bytes = std::move(queue_.front());
    queue_.pop_front();
    const bool skip = failed_;  // after a failed write, nothing more
    lock.unlock();
    const bool ok = skip || bytes.WriteTo(fd_);
    lock.lock();
    failed_ = failed_ || !ok;
  }
}

void SegmentWriter::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  queued_.notify_one();
  if (writer_.joinable()) writer_.join();
}

bool SegmentWriter::Finish() {
  Stop();
  bool ok = !failed_ && next_ == waiting_.size();
  ok = close(fd_) == 0 && ok;
  fd_ = -1;
  finished_ = ok && rename(tmp_.c_str(), path_.c_str()) == 0;
  return finished_;
}

void WriteTreeOutput(const std::string& dir, const core::Hash128& slot, const TreeOutput& entry) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  // Segments stay where they lie in the current .seg file when they are
  // at least half of the answer; else all of them are written anew.
  uint64_t total = 0, staying = 0;
  for (const auto& f : entry.files) {
    total += f.segment.size();
    if (f.seg_offset) staying += f.segment.size();
  }
  const bool keep_seg = !(entry.seg_id == core::Hash128{}) && 2 * staying >= total;
  core::Hash128 seg_id = keep_seg ? entry.seg_id : entry.state;

  // Each segment's place in the new files, and the bytes to write.
  OutputBytes inline_bytes, seg_bytes = SegHead(seg_id);
  ByteWriter summary;
  auto place_inline = [&](const OutputBytes& bytes) {
    summary.U64(kInline);
    summary.U64(inline_bytes.size());
    summary.U64(bytes.size());
    inline_bytes.Append(bytes);
  };
  summary.U64(static_cast<uint64_t>(entry.layout.format));
  summary.U64(entry.layout.table_width);
  place_inline(entry.head);
  place_inline(entry.tail);
  summary.U64(entry.files.size());
  for (const auto& f : entry.files) {
    summary.Str(f.path);
    summary.Str(f.summary.path);
    for (uint64_t field : f.stat) summary.U64(field);
    summary.U64(f.tests);
    summary.U64(f.longest_id);
    if (keep_seg && f.seg_offset) {
      summary.U64(kSeg);
      summary.U64(*f.seg_offset);
      summary.U64(f.segment.size());
    } else if (keep_seg) {
      place_inline(f.segment);
    } else {
      summary.U64(kSeg);
      summary.U64(seg_bytes.size());
      summary.U64(f.segment.size());
      seg_bytes.Append(f.segment);
    }
    FileScan s;  // the summary alone: flags and diagnostics
    s.skipped = f.summary.skipped;
    s.incomplete = f.summary.incomplete;
    s.diagnostics = f.summary.diagnostics;
    summary.Str(EncodeFileScan(s));
  }
  ByteWriter index_head;
  index_head.out.assign(kIndexMagic, 8);
  Hash(index_head, entry.state);
  Hash(index_head, entry.context);
  Hash(index_head, seg_id);
  index_head.U64(inline_bytes.size());

  std::string index_path = EntryPath(dir, slot, ".out");
  if (!keep_seg) {
    RemoveEntry(dir, slot);
    std::string seg_path = EntryPath(dir, slot, ".seg");
    if (!WriteFile(seg_path, {&seg_bytes})) return;
  }
  OutputBytes head(std::move(index_head.out)), rest(std::move(summary.out));
  WriteFile(index_path, {&head, &inline_bytes, &rest});
}

}  // namespace testmap::python
