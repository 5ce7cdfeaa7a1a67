#include "core/trace_format.h"

#include <algorithm>
#include <filesystem>

namespace testmap::core {

std::string ShardFileName(std::string_view worker) {
  return "trace-" + std::string(worker) + ".jsonl";
}

bool IsShardFileName(std::string_view filename) {
  return filename.size() > 12 && filename.starts_with("trace-") && filename.ends_with(".jsonl");
}

std::string SignalNoteFileName(std::string_view worker) {
  return "signal-" + std::string(worker) + ".txt";
}

bool IsSignalNoteFileName(std::string_view filename) {
  return filename.size() > 11 && filename.starts_with("signal-") && filename.ends_with(".txt");
}

std::vector<std::string> ListShards(const std::string& dir) {
  std::vector<std::string> shards;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (IsShardFileName(entry.path().filename().string()) && entry.is_regular_file(ec))
      shards.push_back(entry.path().string());
  }
  std::sort(shards.begin(), shards.end());
  return shards;
}

}  // namespace testmap::core
