// How many tests a running trace has finished, read from its shards as
// pytest's processes append to them: the count behind `testmap trace`'s
// progress line. Each call reads only what the shards gained since the
// last, through the one trace reader (core/trace_reader.h), so a long run
// is read about once more in total, and only when someone watches.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace testmap::tracer {

class ShardProgress {
 public:
  // What the shards in `dir` already hold (--keep appends) is not counted.
  explicit ShardProgress(std::string dir);

  // Finished tests (`test` records) written since construction, over every
  // shard in the directory, including shards that appeared since.
  size_t Poll();

 private:
  struct Shard {
    uint64_t offset = 0;   // bytes read
    std::string run_line;  // the shard's first record, to read later chunks after
    size_t tests = 0;
    bool unreadable = false;  // progress is best effort: a bad shard stops counting
  };
  std::string dir_;
  std::map<std::string, Shard> shards_;
};

}  // namespace testmap::tracer
