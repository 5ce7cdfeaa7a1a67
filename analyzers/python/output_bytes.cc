#include "analyzers/python/output_bytes.h"

#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace testmap::python {
namespace {

// Writes the buffers of `iov` whole, resuming after short writes.
bool WriteAll(int fd, std::vector<iovec> iov) {
  size_t at = 0;
  while (at < iov.size()) {
    int n = static_cast<int>(std::min<size_t>(iov.size() - at, IOV_MAX));
    ssize_t w = writev(fd, iov.data() + at, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    for (auto left = static_cast<size_t>(w); left > 0;) {
      size_t step = std::min(left, iov[at].iov_len);
      iov[at].iov_base = static_cast<char*>(iov[at].iov_base) + step;
      iov[at].iov_len -= step;
      left -= step;
      if (iov[at].iov_len == 0) ++at;
    }
    while (at < iov.size() && iov[at].iov_len == 0) ++at;
  }
  return true;
}

// Where sendfile cannot write (stdout opened with O_APPEND, an old kernel
// for that kind of file): the range in chunks, never the whole of it.
bool CopyRange(int in, off_t offset, uint64_t n, int out) {
  static constexpr size_t kChunk = 1 << 20;
  std::string buffer(kChunk, '\0');
  while (n > 0) {
    ssize_t r = pread(in, buffer.data(), n < kChunk ? n : kChunk, offset);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) errno = EIO;  // the file is shorter than the range
    if (r <= 0 || !WriteAll(out, {{buffer.data(), static_cast<size_t>(r)}})) return false;
    offset += r;
    n -= static_cast<uint64_t>(r);
  }
  return true;
}

bool SendRange(int in, uint64_t offset, uint64_t size, int out) {
  auto at = static_cast<off_t>(offset);
  while (size > 0) {
    ssize_t n = sendfile(out, in, &at, size < (1u << 30) ? size : (1u << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EINVAL || errno == ENOSYS)) return CopyRange(in, at, size, out);
    if (n == 0) errno = EIO;  // the file is shorter than the range
    if (n <= 0) return false;
    size -= static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

OutputBytes::OutputBytes(std::string bytes) { Append(std::move(bytes)); }

OutputBytes OutputBytes::FileRange(int fd, uint64_t offset, uint64_t size) {
  OutputBytes out;
  Piece p;
  p.file = std::shared_ptr<const int>(new int(fd), [](const int* f) {
    close(*f);
    delete f;
  });
  p.offset = offset;
  p.size = size;
  out.pieces_.push_back(std::move(p));  // even when empty: it owns the fd
  out.size_ = size;
  return out;
}

void OutputBytes::Add(Piece p) {
  if (p.size == 0) return;
  size_ += p.size;
  if (!pieces_.empty()) {
    Piece& last = pieces_.back();
    if (p.file && last.file == p.file && last.offset + last.size == p.offset) {
      last.size += p.size;
      return;
    }
  }
  pieces_.push_back(std::move(p));
}

void OutputBytes::Append(const OutputBytes& other) {
  for (const Piece& p : other.pieces_) Add(p);
}

void OutputBytes::Append(std::string bytes) {
  Piece p;
  p.size = bytes.size();
  p.bytes = std::make_shared<const std::string>(std::move(bytes));
  Add(std::move(p));
}

OutputBytes OutputBytes::Range(uint64_t offset, uint64_t size) const {
  OutputBytes out;
  for (const Piece& p : pieces_) {
    if (size == 0) break;
    if (offset >= p.size) {
      offset -= p.size;
      continue;
    }
    Piece part = p;
    part.offset += offset;
    part.size = std::min(size, p.size - offset);
    size -= part.size;
    offset = 0;
    out.Add(std::move(part));
  }
  return out;
}

std::string OutputBytes::str() const {
  std::string out;
  out.reserve(size_);
  for (const Piece& p : pieces_) {
    if (p.bytes) {
      out.append(*p.bytes, p.offset, p.size);
      continue;
    }
    size_t at = out.size();
    out.resize(at + p.size);
    size_t got = 0;
    while (got < p.size) {
      ssize_t r =
          pread(*p.file, out.data() + at + got, p.size - got, static_cast<off_t>(p.offset + got));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      got += static_cast<size_t>(r);
    }
    out.resize(at + got);
  }
  return out;
}

bool OutputBytes::WriteTo(int fd) const {
  // Runs of in-memory pieces go in one writev each; file ranges by
  // sendfile.
  std::vector<iovec> run;
  for (const Piece& p : pieces_) {
    if (p.bytes) {
      run.push_back({const_cast<char*>(p.bytes->data() + p.offset), p.size});
      continue;
    }
    if (!run.empty() && !WriteAll(fd, std::move(run))) return false;
    run.clear();
    if (!SendRange(*p.file, p.offset, p.size, fd)) return false;
  }
  return run.empty() || WriteAll(fd, std::move(run));
}

}  // namespace testmap::python
