#include "analyzers/python/output_bytes.h"

#include <sys/sendfile.h>
#include <unistd.h>

#include <cerrno>

namespace testmap::python {
namespace {

bool WriteAll(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    n -= static_cast<size_t>(w);
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
    if (r <= 0 || !WriteAll(out, buffer.data(), static_cast<size_t>(r))) return false;
    offset += r;
    n -= static_cast<uint64_t>(r);
  }
  return true;
}

}  // namespace

OutputBytes::OutputBytes(std::string bytes) : bytes_(std::move(bytes)) {}

OutputBytes OutputBytes::FileRange(int fd, uint64_t offset, uint64_t size) {
  OutputBytes out;
  out.file_ = std::shared_ptr<const int>(new int(fd), [](const int* p) {
    close(*p);
    delete p;
  });
  out.file_offset_ = offset;
  out.file_size_ = size;
  return out;
}

OutputBytes OutputBytes::Range(uint64_t offset, uint64_t size) const {
  OutputBytes out = *this;
  out.file_offset_ = offset;
  out.file_size_ = size;
  return out;
}

std::string OutputBytes::str() const {
  if (!file_) return bytes_;
  std::string out(file_size_, '\0');
  size_t got = 0;
  while (got < out.size()) {
    ssize_t r =
        pread(*file_, out.data() + got, out.size() - got, static_cast<off_t>(file_offset_ + got));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  out.resize(got);
  return out;
}

bool OutputBytes::WriteTo(int fd) const {
  if (!file_) return WriteAll(fd, bytes_.data(), bytes_.size());
  off_t offset = static_cast<off_t>(file_offset_);
  uint64_t left = file_size_;
  while (left > 0) {
    ssize_t n = sendfile(fd, *file_, &offset, left < (1u << 30) ? left : (1u << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EINVAL || errno == ENOSYS)) return CopyRange(*file_, offset, left, fd);
    if (n == 0) errno = EIO;  // the file is shorter than the range
    if (n <= 0) return false;
    left -= static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace testmap::python
