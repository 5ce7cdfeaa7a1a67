#include "timings/timing_record.h"

namespace testmap::timings {

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
