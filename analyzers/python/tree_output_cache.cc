#include "analyzers/python/tree_output_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>

#include "analyzers/python/scan_cache.h"

namespace testmap::python {
namespace {

// Bump when the entry's layout changes.
constexpr char kMagic[8] = {'t', 'm', 't', 'r', 'e', 'e', '0', '1'};

std::string EntryPath(const std::string& dir, const core::Hash128& slot) {
  return dir + "/" + core::HexDigest(slot) + ".out";
}

void PutU64(uint64_t v, std::string& out) { out.append(reinterpret_cast<const char*>(&v), 8); }
void PutStr(std::string_view s, std::string& out) {
  PutU64(s.size(), out);
  out.append(s);
}

class Cursor {
 public:
  explicit Cursor(std::string_view b) : b_(b) {}
  bool U64(uint64_t* v) {
    if (b_.size() < 8) return false;
    std::memcpy(v, b_.data(), 8);
    b_.remove_prefix(8);
    return true;
  }
  bool Str(std::string_view* s) {
    uint64_t n;
    if (!U64(&n) || b_.size() < n) return false;
    *s = b_.substr(0, n);
    b_.remove_prefix(n);
    return true;
  }
  std::string_view rest() const { return b_; }

 private:
  std::string_view b_;
};

bool ReadAll(const std::string& path, std::string* out) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool ok = fstat(fd, &st) == 0;
  out->resize(ok ? static_cast<size_t>(st.st_size) : 0);
  size_t got = 0;
  while (ok && got < out->size()) {
    ssize_t n = read(fd, out->data() + got, out->size() - got);
    if (n <= 0) ok = false;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  close(fd);
  return ok;
}

}  // namespace

std::optional<TreeOutput> ReadTreeOutput(const std::string& dir, const core::Hash128& slot,
                                         const core::Hash128& state) {
  std::string bytes;
  if (!ReadAll(EntryPath(dir, slot), &bytes)) return std::nullopt;
  Cursor c(bytes);
  uint64_t magic, high, low, nfiles, tests;
  std::string_view version;
  if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0) return std::nullopt;
  if (!c.U64(&magic) || !c.U64(&high) || !c.U64(&low) || high != state.high || low != state.low ||
      !c.U64(&tests) || !c.Str(&version) || !c.U64(&nfiles))
    return std::nullopt;
  TreeOutput t;
  t.tests = tests;
  t.torch_version = version;
  t.files.resize(nfiles);
  for (auto& f : t.files) {
    std::string_view path, scan;
    if (!c.Str(&path) || !c.Str(&scan) || !DecodeFileScan(scan, std::string(path), &f))
      return std::nullopt;
  }
  std::string_view output;
  if (!c.Str(&output) || !c.rest().empty()) return std::nullopt;
  // One copy out of the file's buffer; the output is most of it.
  t.output.assign(output);
  return t;
}

void WriteTreeOutput(const std::string& dir, const core::Hash128& slot, const core::Hash128& state,
                     const std::vector<FileScan>& files, size_t tests,
                     const std::string& torch_version, const std::string& output) {
  std::string head(kMagic, 8);
  PutU64(state.high, head);
  PutU64(state.low, head);
  PutU64(tests, head);
  PutStr(torch_version, head);
  PutU64(files.size(), head);
  for (const auto& f : files) {
    FileScan summary;  // path "" so the encoding keeps whole (empty) ids
    summary.skipped = f.skipped;
    summary.incomplete = f.incomplete;
    summary.diagnostics = f.diagnostics;
    PutStr(f.path, head);
    PutStr(EncodeFileScan(summary), head);
  }
  PutU64(output.size(), head);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::string target = EntryPath(dir, slot);
  std::string tmp = target + ".tmp" + std::to_string(getpid());
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  bool ok = true;
  for (std::string_view part : {std::string_view(head), std::string_view(output)}) {
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
