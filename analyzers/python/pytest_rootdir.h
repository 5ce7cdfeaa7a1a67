// pytest's rootdir, config file and initial paths, computed as pytest 9's
// _pytest/config/findpaths.py determine_setup() and Config._decide_args()
// do, so that scanned node ids are the ones `pytest --collect-only -q`
// prints in the same invocation (same working directory, same arguments).
//
// The rule, in order:
//   1. `-c FILE`: FILE is the config; the rootdir is its directory (a path
//      that is not a regular file, like /dev/null, means "no config": the
//      rootdir is then the common ancestor, or the working directory if
//      that is the filesystem root).
//   2. Otherwise the first config file found walking up from the common
//      ancestor of the path arguments (the working directory without
//      any): in each directory pytest.toml, .pytest.toml, pytest.ini,
//      .pytest.ini (always), pyproject.toml with [tool.pytest] or
//      [tool.pytest.ini_options], tox.ini with [pytest], setup.cfg with
//      [tool:pytest]. The rootdir is the directory holding it. A
//      pyproject.toml without a pytest table is remembered: if nothing else
//      is found, its directory is the rootdir.
//   3. No config: the first directory from the common ancestor upward with
//      a setup.py; else each argument's own config search; else the common
//      ancestor of the working directory and the arguments (the ancestor
//      itself if that is the filesystem root).
//   4. `--rootdir DIR` overrides the rootdir (not the config file).
// Paths: with no path argument, the config's `testpaths` (globbed) when
// pytest runs from the rootdir, else the working directory.
// A file's node id path is relative to the rootdir, or, for a file outside
// it, to the path argument that contains it.
//
// Used by `testmap scan`; the tracer and the file identity that joins
// pytest ids, test-times keys and config paths use the same rule.
#pragma once

#include <string>
#include <vector>

namespace testmap::python {

struct PytestInvocation {
  std::vector<std::string> args;  // path arguments as given (relative to cwd)
  std::string rootdir;            // --rootdir, or empty
  std::string config_file;        // -c / --config-file, or empty
  std::string cwd;                // the invocation directory; empty: the current one
};

struct PytestSetup {
  std::string rootdir;      // absolute, normalized
  std::string config_file;  // absolute; empty when there is none
  // What pytest collects: the arguments, else testpaths, else the cwd
  // (absolute paths).
  std::vector<std::string> paths;
  bool from_testpaths = false;
  // Config keys the scan does not honour that change what pytest collects
  // (python_files, python_classes, python_functions, norecursedirs).
  std::vector<std::string> unhonoured_keys;
};

// Throws core::UsageError for what pytest refuses with a UsageError: a -c
// file that does not exist or is a directory, a --rootdir that is not a
// directory. Unreadable config files are skipped, as pytest cannot read
// them either (it then fails; the scan says so on its own).
PytestSetup DeterminePytestSetup(const PytestInvocation& invocation);

// The path part of a file's node id (`test/test_ops.py`). A relative
// `file` is relative to `cwd`; empty: the current directory, asked each
// call (a tree scan asks once and passes it: getcwd costs a syscall).
std::string NodeIdPath(const std::string& file, const PytestSetup& setup,
                       const std::string& cwd = "");

}  // namespace testmap::python
