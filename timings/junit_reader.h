// JUnit XML as pytest writes it (--junitxml), in both junit families:
// xunit1 puts `file` and `line` on <testcase>, xunit2 (pytest's default) does
// not, so the node id is rebuilt from `classname` (see RebuildNodeId).
#pragma once

#include <string>
#include <vector>

#include "timings/process_wall.h"
#include "timings/timing_record.h"

namespace testmap::timings {

// Reads the file at `path`. One record per test and file:
//  - <skipped> is kSkipped, except pytest's xfail (type="pytest.xfail"),
//    which ran and so counts as a timing;
//  - <failure> is kFailed, <error> is kError;
//  - retried tests (pytest-rerunfailures writes either one <testcase> per
//    attempt, or <rerun>/<flakyFailure>/<flakyError>/<rerunFailure>/
//    <rerunError> children) become one record with rerun = true, whose
//    duration is the sum of the attempts: that is what the CI job paid;
//  - a <property name="feature" value="..."> on the testcase sets feature.
// Throws core::InputError with the line on malformed XML, a root that is not
// <testsuites>/<testsuite>, a testcase without name or time, or a NaN or
// negative time.
//
// With `walls`, each <testsuite> that has a `time` (pytest writes one suite
// per session) is also one ProcessWall: the suite's time is the session's
// wall time (pytest measures it from session start, so the interpreter's
// and pytest's own start-up before that are not in it).
std::vector<TimingRecord> ReadJUnitXml(const std::string& path,
                                       std::vector<ProcessWall>* walls = nullptr);

std::vector<TimingRecord> ParseJUnitXml(const std::string& text, const std::string& source,
                                        std::vector<ProcessWall>* walls = nullptr);

// The pytest node id of a testcase. With `file` (xunit1) the module part of
// `classname` is matched against it; without (xunit2) the dotted classname is
// split where class names (CamelCase) start: "pkg.test_mod.TestA" ->
// "pkg/test_mod.py::TestA::<name>". Documented limits: directories with dots
// in their names and lower-case class names are ambiguous without `file`.
std::string RebuildNodeId(const std::string& classname, const std::string& name,
                          const std::string& file);

}  // namespace testmap::timings
