#include "mapper/diff/diff.h"

#include <chrono>
#include <future>

#include "core/read_file.h"
#include "mapper/config/config_reader.h"

namespace testmap::diff {

DiffResult RunDiff(const DiffRequest& request) {
  DiffResult result;
  // A config that cannot be read is found before any scan runs.
  std::optional<config::Config> cfg;
  std::string cfg_text;
  if (!request.config.empty()) {
    cfg_text = core::ReadInputFile(request.config);
    cfg = config::ConfigOrThrow(config::ParseConfig(cfg_text, request.config));
  }
  auto old_side = std::async(std::launch::async,
                             [&] { return ReadSide(request.old_path, request.old_options); });
  result.new_side = ReadSide(request.new_path, request.new_options);
  result.old_side = old_side.get();
  auto start = std::chrono::steady_clock::now();
  result.delta = ComputeDelta(result.old_side, result.new_side);
  if (cfg)
    result.config = ComputeConfigEffect(*cfg, cfg_text, result.old_side, result.new_side,
                                        result.delta, request.root_token);
  result.delta_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace testmap::diff
