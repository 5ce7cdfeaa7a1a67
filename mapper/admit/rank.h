// `testmap admit --rank` and `--new-op`: what enabling operators would buy.
// Only blocked tests whose evidence is complete and whose dtypes pass can
// become admitted; dtype-blocked tests need no operator but a dtype rule.
#pragma once

#include <string>
#include <vector>

#include "mapper/admit/admission.h"

namespace testmap::admit {

// One missing operator on its own.
struct OpGain {
  std::string op;
  size_t tests = 0;     // blocked tests it alone would admit (their only missing operator)
  double seconds = 0;   // their traced durations
  size_t blocking = 0;  // blocked tests that need it, alone or with others
};

// One step of the greedy sequence: the operators added (one, or the set a
// group of tests needs together when no single operator admits anything),
// what they admit, and the running totals.
struct RankStep {
  std::vector<std::string> ops;
  size_t tests = 0;
  double seconds = 0;
  size_t total_tests = 0;
  double total_seconds = 0;
};

struct Ranking {
  size_t unlockable = 0;        // blocked tests that operators alone would admit
  std::vector<OpGain> ops;      // every missing operator, most tests first
  std::vector<RankStep> steps;  // the greedy sequence, at most `steps` long
};

// Orders by tests admitted, then seconds, then name.
Ranking RankOps(const Admission& admission, size_t steps);

// The tests enabling `ops` (operator spellings; a packet enables every
// overload) would admit, and nothing else: blocked tests whose every
// missing operator is among them. Throws core::UnknownNameError for a name
// that cannot be an operator.
std::vector<const TestAdmission*> WouldAdmit(const Admission& admission,
                                             const std::vector<std::string>& ops);

}  // namespace testmap::admit
