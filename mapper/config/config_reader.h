// Reading a test_suite_config with yaml-cpp: the schema as backends use it
// (config_model.h), checked while read. Every problem is a Diagnostic with
// the file, line and column of the value it is about:
//   errors   malformed YAML, a wrong type, a missing required key, an
//            unknown mode, a name that is not `Class::method`, a dtype torch
//            does not have, a duplicate key;
//   warnings an unknown key (configs grow keys; strict makes it an error),
//            keys the framework plans but testmap does not evaluate
//            (selectors, devices), tags that are not Python identifiers.
#pragma once

#include <string>
#include <vector>

#include "mapper/config/config_model.h"

namespace testmap::config {

struct ReadOptions {
  bool strict = false;  // unknown keys are errors
};

struct ReadResult {
  Config config;
  std::vector<Diagnostic> diagnostics;
  bool HasErrors() const;
};

// `text` is the file's content, `path` names it in diagnostics.
ReadResult ParseConfig(const std::string& text, const std::string& path,
                       const ReadOptions& options = {});

// Reads `path` (core::ReadInputFile) and parses it.
ReadResult ReadConfig(const std::string& path, const ReadOptions& options = {});

// ReadConfig for commands that need a valid config: throws core::InputError
// ("path:line:column: message") for the first error; warnings are appended
// to `warnings` when given.
Config LoadConfig(const std::string& path, std::vector<Diagnostic>* warnings = nullptr,
                  const ReadOptions& options = {});
// The same for a result already parsed.
Config ConfigOrThrow(ReadResult result, std::vector<Diagnostic>* warnings = nullptr);

}  // namespace testmap::config
