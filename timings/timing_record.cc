#include "timings/timing_record.h"

#include <cmath>
#include <sstream>

#include "core/errors.h"

namespace testmap::timings {
void CheckDuration(double seconds, const std::string& file, int line, const std::string& what) {
  if (std::isnan(seconds)) throw core::InputError(file, line, "duration of " + what + " is NaN");
  if (std::isinf(seconds))
    throw core::InputError(file, line, "duration of " + what + " is infinite");
  if (seconds < 0) {
    std::ostringstream out;
    out << "duration of " << what << " is negative (" << seconds << " s)";
    throw core::InputError(file, line, out.str());
  }
  if (seconds > kMaxDurationSeconds) {
    std::ostringstream out;
    out << "duration of " << what << " is " << seconds << " s, over the limit of "
        << kMaxDurationSeconds << " s (a week): not a test's duration";
    throw core::InputError(file, line, out.str());
  }
}

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPassed:
      return "passed";
    case Outcome::kFailed:
      return "failed";
    case Outcome::kError:
      return "error";
    case Outcome::kSkipped:
      return "skipped";
  }
  return "unknown";
}

Outcome OutcomeFromName(const std::string& name) {
  if (name == "failed") return Outcome::kFailed;
  if (name == "error") return Outcome::kError;
  if (name == "skipped" || name == "crashed") return Outcome::kSkipped;
  return Outcome::kPassed;
}

const char* TimingLevelName(TimingLevel level) {
  switch (level) {
    case TimingLevel::kClass:
      return "class";
    case TimingLevel::kFile:
      return "file";
    default:
      return "test";
  }
}

TimingLevel TimingLevelFromName(const std::string& name) {
  return name == "file"    ? TimingLevel::kFile
         : name == "class" ? TimingLevel::kClass
                           : TimingLevel::kTest;
}

}  // namespace testmap::timings
