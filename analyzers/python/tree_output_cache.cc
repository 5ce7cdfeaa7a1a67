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

// Bump when the entry's layout changes.
constexpr char kMagic[8] = {'t', 'm', 't', 'r', 'e', 'e', '0', '3'};

std::string EntryPath(const std::string& dir, const core::Hash128& slot) {
  return dir + "/" + core::HexDigest(slot) + ".out";
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

}  // namespace

std::optional<TreeOutput> ReadTreeOutput(const std::string& dir, const core::Hash128& slot,
                                         const core::Hash128& state) {
  int fd = open(EntryPath(dir, slot).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // Owned from here on: closed on a miss, kept open by the output on a hit.
  OutputBytes file = OutputBytes::FileRange(fd, 0, 0);
  // The head first: a stale entry costs 32 bytes, not the whole output.
  std::string head, rest;
  uint64_t magic, high, low, size;
  if (!ReadExactly(fd, 32, &head) || std::memcmp(head.data(), kMagic, 8) != 0) return std::nullopt;
  ByteReader h(head);
  struct stat st;
  if (!h.U64(&magic) || !h.U64(&high) || !h.U64(&low) || !h.U64(&size) || high != state.high ||
      low != state.low || fstat(fd, &st) != 0 || static_cast<uint64_t>(st.st_size) < 32 + size)
    return std::nullopt;
  // Only the summary is read; the output stays in the file (output_bytes.h).
  if (lseek(fd, static_cast<off_t>(32 + size), SEEK_SET) < 0 ||
      !ReadExactly(fd, static_cast<size_t>(st.st_size) - 32 - size, &rest))
    return std::nullopt;
  TreeOutput t;
  t.output = file.Range(32, size);
  ByteReader c(rest);
  uint64_t nfiles, tests;
  if (!c.U64(&tests) || !c.U64(&nfiles)) return std::nullopt;
  t.tests = tests;
  t.files.resize(nfiles);
  for (auto& f : t.files) {
    std::string_view path, scan;
    if (!c.Str(&path) || !c.Str(&scan) || !DecodeFileScan(scan, std::string(path), &f))
      return std::nullopt;
  }
  if (!c.done()) return std::nullopt;
  return t;
}

void WriteTreeOutput(const std::string& dir, const core::Hash128& slot, const core::Hash128& state,
                     const std::vector<FileScan>& files, size_t tests, const std::string& output) {
  // Layout: magic, state, output size, output, then the summary.
  ByteWriter head, tail;
  head.out.assign(kMagic, 8);
  head.U64(state.high);
  head.U64(state.low);
  head.U64(output.size());
  tail.U64(tests);
  tail.U64(files.size());
  for (const auto& f : files) {
    FileScan summary;  // path "" so the encoding keeps whole (empty) ids
    summary.skipped = f.skipped;
    summary.incomplete = f.incomplete;
    summary.diagnostics = f.diagnostics;
    tail.Str(f.path);
    tail.Str(EncodeFileScan(summary));
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string target = EntryPath(dir, slot);
  std::string tmp = target + ".tmp" + std::to_string(getpid());
  // The slot's old entry is stale (its state is not this one): removed
  // first, its page cache is free before the new entry's tens of megabytes
  // are written, and the write reuses those pages instead of ones the
  // kernel has not touched yet, which cost several times more to fill on a
  // virtual machine (docs/scan.md). A reader in between misses, and scans.
  unlink(target.c_str());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  bool ok = true;
  for (std::string_view part :
       {std::string_view(head.out), std::string_view(output), std::string_view(tail.out)}) {
    while (ok && !part.empty()) {
      ssize_t n = write(fd, part.data(), part.size());
      ok = n > 0;
      if (ok) part.remove_prefix(static_cast<size_t>(n));
    }
  }
  ok = close(fd) == 0 && ok;
  if (!ok || rename(tmp.c_str(), target.c_str()) != 0) unlink(tmp.c_str());
}

}  // namespace testmap::python
