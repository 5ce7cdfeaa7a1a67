#include "tracer/shard_progress.h"

#include <fstream>

#include "core/errors.h"
#include "core/trace_format.h"
#include "core/trace_reader.h"

namespace testmap::tracer {
namespace {

class FinishedTests : public core::TraceVisitor {
 public:
  void Test(const core::TraceTest& t) override { tests += !t.unfinished; }
  size_t tests = 0;
};

// The complete lines of `path` from `offset` on (a line still being
// written waits for the next call).
std::string NewLines(const std::string& path, uint64_t offset) {
  std::ifstream in(path, std::ios::binary);
  if (!in.seekg(static_cast<std::streamoff>(offset))) return "";
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t end = text.rfind('\n');
  text.resize(end == std::string::npos ? 0 : end + 1);
  return text;
}

}  // namespace

ShardProgress::ShardProgress(std::string dir) : dir_(std::move(dir)) {
  for (const std::string& path : core::ListShards(dir_)) {
    Shard& s = shards_[path];
    std::string text = NewLines(path, 0);
    s.offset = text.size();
    s.run_line = text.substr(0, text.find('\n') + 1);
  }
}

size_t ShardProgress::Poll() {
  size_t total = 0;
  for (const std::string& path : core::ListShards(dir_)) {
    Shard& s = shards_[path];
    if (!s.unreadable) {
      std::string chunk = NewLines(path, s.offset);
      if (!chunk.empty()) {
        s.offset += chunk.size();
        if (s.run_line.empty()) s.run_line = chunk.substr(0, chunk.find('\n') + 1);
        // Later chunks are read after the shard's run record, as the
        // reader wants a shard to start; that line holds no test.
        if (!chunk.starts_with(s.run_line)) chunk.insert(0, s.run_line);
        FinishedTests counter;
        try {
          core::ReadTrace(chunk, path, counter);
          s.tests += counter.tests;
        } catch (const core::InputError&) {
          s.unreadable = true;  // `testmap trace` reports it properly at the end
        }
      }
    }
    total += s.tests;
  }
  return total;
}

}  // namespace testmap::tracer
