// Running a helper process (Python, the Clang reader) with text on its
// stdin and its stdout read line by line as it comes.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace testmap::backend {

struct ProcessResult {
  int status = -1;  // exit status; 128+N when killed by signal N; -1 when it did not start
  std::string out;  // stdout, unless a line callback consumed it
  std::string err;  // stderr (its last 64 KiB)
};

// Runs argv[0] (looked up in PATH) with `input` on stdin. `on_line`, when
// given, receives each stdout line (without its newline) as it arrives.
// `env` entries (`NAME=value`) are added to the environment.
ProcessResult RunProcess(const std::vector<std::string>& argv, const std::string& input,
                         const std::function<void(const std::string&)>& on_line = nullptr,
                         const std::vector<std::string>& env = {});

}  // namespace testmap::backend
