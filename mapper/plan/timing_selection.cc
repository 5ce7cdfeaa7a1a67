#include "mapper/plan/timing_selection.h"

#include <set>
#include <stdexcept>

#include "core/errors.h"

namespace testmap::plan {

TimingSelection SelectTimings(std::vector<timings::TimingSummary> summaries, const std::string& job,
                              const std::string& config) {
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& s : summaries) {
    if (!s.job.empty() || !s.config.empty()) pairs.insert({s.job, s.config});
  }
  TimingSelection out;
  std::pair<std::string, std::string> chosen;
  bool have_choice = false;
  if (!pairs.empty()) {
    const std::string wanted_job = job.empty() ? "default" : job;
    if (pairs.count({wanted_job, config})) {
      chosen = {wanted_job, config};
      have_choice = true;
    } else if (pairs.count({"default", config})) {
      chosen = {"default", config};
      have_choice = true;
      out.notes.push_back("no timings for job \"" + wanted_job + "\" config \"" + config +
                          "\"; using job \"default\" (as PyTorch does)");
    } else if (job.empty() && config.empty() && pairs.size() == 1) {
      chosen = *pairs.begin();
      have_choice = true;
    } else {
      std::string available;
      std::set<std::string> configs;
      for (const auto& [j, c] : pairs) {
        if (j == wanted_job || j == "default") configs.insert(c.empty() ? "\"\"" : c);
      }
      for (const auto& c : configs) available += (available.empty() ? "" : ", ") + c;
      throw core::UnknownNameError("job/config", wanted_job + "/" + config, {},
                                   "no test-times entry for job \"" + wanted_job + "\" config \"" +
                                       config + "\" nor for job \"default\"; configs there: " +
                                       (available.empty() ? "(none)" : available) +
                                       " (choose with --job and --config)");
    }
  }
  for (auto& s : summaries) {
    bool timing_file_pair = !s.job.empty() || !s.config.empty();
    if (!timing_file_pair || (have_choice && s.job == chosen.first && s.config == chosen.second)) {
      out.target.push_back(std::move(s));
    } else {
      out.references.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace testmap::plan
