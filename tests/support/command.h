// Running real commands from tests: the testmap binary, python, pytest.
// One way for every test: argv in, exit code and both streams out.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace testmap::testing {

struct CommandResult {
  int rc = -1;  // exit status, or 128 + signal number
  std::string out, err;
};

// Runs argv (argv[0] searched in PATH) in `cwd` (empty: the current one),
// with `env` added to the environment and `input` on stdin. Thread-safe.
CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& cwd = "",
                         const std::map<std::string, std::string>& env = {},
                         const std::string& input = "");

// The testmap binary under test: $TESTMAP_BIN, else the build tree's.
std::string TestmapBin();

// `testmap ARGS...` in `cwd`.
CommandResult Testmap(std::vector<std::string> args, const std::string& cwd = "",
                      const std::map<std::string, std::string>& env = {});

// `testmap WORDS` through sh, in `cwd`: for what needs a shell, such as
// redirecting stdout (`> /dev/full`, `| cat`). WORDS are shell words.
CommandResult TestmapShell(const std::string& words, const std::string& cwd = "");

// `python ARGS...` with the configured interpreter (torch, pytest).
CommandResult Python(std::vector<std::string> args, const std::string& cwd = "",
                     const std::map<std::string, std::string>& env = {});

}  // namespace testmap::testing
