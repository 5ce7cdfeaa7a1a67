// The torch whose operator registry admission rests on (the admit and
// rank_next_ops tools; `testmap admit` reads the same one): the snapshot
// the server was started with (`--snapshot FILE`), or the cached snapshot
// of `--torch-python PY` (default: the active virtualenv's, else
// $TESTMAP_PYTHON, else the one testmap was built with, as the CLI's).
// Loaded on first use, once per session: a server asked only about
// operators the index has never reads it.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::mcp {

class TorchSource {
 public:
  TorchSource(std::string python, std::string snapshot)
      : python_(std::move(python)), snapshot_(std::move(snapshot)) {}

  // Throws core::InputError (every call, the same message) when it cannot
  // be read.
  const torch_snapshot::TorchSnapshot& Get() const;

  // What the server was started with (either may be empty): other tools
  // that need a torch (a test tree's @ops, for `diff`) default to it.
  const std::string& python() const { return python_; }
  const std::string& snapshot() const { return snapshot_; }

 private:
  std::string python_, snapshot_;
  mutable std::mutex mu_;
  mutable std::unique_ptr<torch_snapshot::TorchSnapshot> torch_;
  mutable std::string error_;
};

}  // namespace testmap::mcp
