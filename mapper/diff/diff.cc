#include "mapper/diff/diff.h"

#include <chrono>
#include <exception>
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
  std::exception_ptr new_error;
  try {
    result.new_side = ReadSide(request.new_path, request.new_options);
  } catch (...) {
    new_error = std::current_exception();
  }
  result.old_side = old_side.get();  // the old side's error first, when both fail
  if (new_error) std::rethrow_exception(new_error);
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
