#include "core/duration.h"

#include <cmath>
#include <sstream>

#include "core/errors.h"

namespace testmap::core {

void CheckDuration(double seconds, const std::string& file, int line, const std::string& what) {
  if (std::isnan(seconds)) throw InputError(file, line, "duration of " + what + " is NaN");
  if (std::isinf(seconds)) throw InputError(file, line, "duration of " + what + " is infinite");
  if (seconds < 0) {
    std::ostringstream out;
    out << "duration of " << what << " is negative (" << seconds << " s)";
    throw InputError(file, line, out.str());
  }
  if (seconds > kMaxDurationSeconds) {
    std::ostringstream out;
    out << "duration of " << what << " is " << seconds << " s, over the limit of "
        << kMaxDurationSeconds << " s (a week): not a test's duration";
    throw InputError(file, line, out.str());
  }
}

}  // namespace testmap::core
