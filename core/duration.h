// The one rule for a duration read from any input (trace shards, JUnit XML,
// .test_durations, test-times.json, plan options): finite, non-negative and
// at most a week. A test (or a whole file) that took longer is a corrupt or
// hostile input, and letting it through would make a plan cut it into
// millions of pieces, drop it from every split, or overflow the renderers'
// arithmetic.
#pragma once

#include <string>

namespace testmap::core {

inline constexpr double kMaxDurationSeconds = 7 * 24 * 3600;

// Throws InputError(file, line) unless `seconds` is a finite, non-negative
// duration of at most kMaxDurationSeconds. `what` names the item in the
// message ("duration of WHAT is ...").
void CheckDuration(double seconds, const std::string& file, int line, const std::string& what);

}  // namespace testmap::core
