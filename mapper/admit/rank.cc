#include "mapper/admit/rank.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "core/errors.h"
#include "core/op_names.h"

namespace testmap::admit {
namespace {

bool Unlockable(const TestAdmission& t) {
  return t.state == State::kBlocked && t.dtype_block.empty() && !t.missing.empty() &&
         t.complete_evidence;
}

// The candidates with their missing operators as ids into `names`.
struct Blocked {
  std::vector<std::string> names;
  std::vector<std::vector<uint32_t>> missing;  // sorted ids, per test
  std::vector<double> seconds;
};

Blocked Collect(const Admission& admission) {
  Blocked b;
  std::unordered_map<std::string, uint32_t> id;
  for (const auto& t : admission.tests) {
    if (!Unlockable(t)) continue;
    std::vector<uint32_t> ids;
    for (const auto& m : t.missing) {
      auto [it, fresh] = id.emplace(m.op, static_cast<uint32_t>(b.names.size()));
      if (fresh) b.names.push_back(m.op);
      ids.push_back(it->second);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    b.missing.push_back(std::move(ids));
    b.seconds.push_back(t.seconds.value_or(0));
  }
  return b;
}

// How many of the most common sets of operators tests need together are
// weighed when no single operator admits anything.
constexpr size_t kCandidateSets = 32;

struct Score {
  size_t tests = 0;
  double seconds = 0;
};

// Better: more tests, then more seconds, then fewer operators, then name.
bool Better(const Score& a, size_t a_ops, const std::string& a_name, const Score& b, size_t b_ops,
            const std::string& b_name) {
  if (a.tests != b.tests) return a.tests > b.tests;
  if (a.seconds != b.seconds) return a.seconds > b.seconds;
  if (a_ops != b_ops) return a_ops < b_ops;
  return a_name < b_name;
}

std::string Joined(const std::vector<uint32_t>& ids, const Blocked& b) {
  std::string s;
  for (uint32_t i : ids) s += b.names[i] + ",";
  return s;
}

}  // namespace

Ranking RankOps(const Admission& admission, size_t steps) {
  Ranking r;
  Blocked b = Collect(admission);
  r.unlockable = b.missing.size();
  std::vector<OpGain> gains(b.names.size());
  for (size_t i = 0; i < b.names.size(); ++i) gains[i].op = b.names[i];
  for (size_t t = 0; t < b.missing.size(); ++t) {
    for (uint32_t op : b.missing[t]) ++gains[op].blocking;
    if (b.missing[t].size() == 1) {
      ++gains[b.missing[t][0]].tests;
      gains[b.missing[t][0]].seconds += b.seconds[t];
    }
  }
  std::sort(gains.begin(), gains.end(), [](const OpGain& x, const OpGain& y) {
    if (x.tests != y.tests) return x.tests > y.tests;
    if (x.seconds != y.seconds) return x.seconds > y.seconds;
    if (x.blocking != y.blocking) return x.blocking > y.blocking;
    return x.op < y.op;
  });
  r.ops = std::move(gains);

  // The greedy sequence over what is still missing per test.
  std::vector<std::vector<uint32_t>> remaining = b.missing;
  std::vector<bool> enabled(b.names.size(), false);
  size_t total = 0;
  double total_seconds = 0;
  for (size_t step = 0; step < steps; ++step) {
    // A single operator that admits tests on its own...
    std::vector<Score> alone(b.names.size());
    for (size_t t = 0; t < remaining.size(); ++t) {
      if (remaining[t].size() != 1) continue;
      ++alone[remaining[t][0]].tests;
      alone[remaining[t][0]].seconds += b.seconds[t];
    }
    std::vector<uint32_t> pick;
    Score best;
    for (uint32_t op = 0; op < alone.size(); ++op) {
      if (alone[op].tests == 0) continue;
      if (pick.empty() || Better(alone[op], 1, b.names[op], best, 1, b.names[pick[0]])) {
        pick = {op};
        best = alone[op];
      }
    }
    if (pick.empty()) {
      // ...else the set of operators a group of tests needs together. The
      // most common remaining sets are the candidates (scoring every
      // distinct set against every test would be quadratic); each is then
      // scored by every test it would admit, its subsets' tests included.
      std::map<std::vector<uint32_t>, size_t> exact;
      for (const auto& m : remaining)
        if (!m.empty()) ++exact[m];
      std::vector<std::pair<std::vector<uint32_t>, size_t>> common(exact.begin(), exact.end());
      std::sort(common.begin(), common.end(), [](const auto& x, const auto& y) {
        if (x.second != y.second) return x.second > y.second;
        if (x.first.size() != y.first.size()) return x.first.size() < y.first.size();
        return x.first < y.first;
      });
      if (common.size() > kCandidateSets) common.resize(kCandidateSets);
      std::map<std::vector<uint32_t>, Score> sets;
      for (const auto& [set, n] : common) {
        Score& score = sets[set];
        for (size_t t = 0; t < remaining.size(); ++t) {
          if (remaining[t].empty()) continue;
          if (std::includes(set.begin(), set.end(), remaining[t].begin(), remaining[t].end())) {
            ++score.tests;
            score.seconds += b.seconds[t];
          }
        }
      }
      // Per operator added, so that one big set does not win by size alone.
      const std::vector<uint32_t>* chosen = nullptr;
      double chosen_rate = 0;
      for (const auto& [set, score] : sets) {
        double rate = double(score.tests) / set.size();
        if (!chosen || rate > chosen_rate ||
            (rate == chosen_rate &&
             Better(score, set.size(), Joined(set, b), best, chosen->size(), Joined(*chosen, b)))) {
          chosen = &set;
          chosen_rate = rate;
          best = score;
        }
      }
      if (!chosen) break;
      pick = *chosen;
    }
    for (uint32_t op : pick) enabled[op] = true;
    RankStep s;
    for (uint32_t op : pick) s.ops.push_back(b.names[op]);
    std::sort(s.ops.begin(), s.ops.end());
    for (size_t t = 0; t < remaining.size(); ++t) {
      if (remaining[t].empty()) continue;
      std::erase_if(remaining[t], [&](uint32_t op) { return enabled[op]; });
      if (remaining[t].empty()) {
        ++s.tests;
        s.seconds += b.seconds[t];
      }
    }
    total += s.tests;
    total_seconds += s.seconds;
    s.total_tests = total;
    s.total_seconds = total_seconds;
    r.steps.push_back(std::move(s));
  }
  return r;
}

std::vector<const TestAdmission*> WouldAdmit(const Admission& admission,
                                             const std::vector<std::string>& ops) {
  std::vector<core::OpName> names;
  for (const auto& text : ops) {
    auto op = core::ParseOpName(text);
    if (!op)
      throw core::UnknownNameError("operator", text, {}, "`" + text + "` is not an operator name");
    names.push_back(*op);
  }
  std::vector<const TestAdmission*> out;
  for (const auto& t : admission.tests) {
    if (!Unlockable(t)) continue;
    bool all = std::all_of(t.missing.begin(), t.missing.end(), [&](const MissingOp& m) {
      auto overload = core::ParseOpName(m.op);
      return overload && std::any_of(names.begin(), names.end(),
                                     [&](const core::OpName& n) { return n.Matches(*overload); });
    });
    if (all) out.push_back(&t);
  }
  return out;
}

}  // namespace testmap::admit
