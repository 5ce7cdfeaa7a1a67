#include "mapper/plan/fixed_costs.h"

namespace testmap::plan {

FixedCosts LearnFixedCosts(const std::vector<timings::ProcessWall>& walls) {
  FixedCosts out;
  double n = 0, sf = 0, so = 0, sff = 0, sfo = 0;
  for (const timings::ProcessWall& w : walls) {
    if (w.tests == 0) continue;
    const double f = w.files, o = w.Overhead();
    n += 1, sf += f, so += o, sff += f * f, sfo += f * o;
  }
  out.processes = static_cast<int>(n);
  if (n == 0) return out;
  const double mean_f = sf / n, mean_o = so / n;
  const double var_f = sff / n - mean_f * mean_f;
  if (var_f > 1e-9) {
    out.per_file = (sfo / n - mean_f * mean_o) / var_f;
    out.per_process = mean_o - out.per_file * mean_f;
  } else {
    out.per_process = mean_o;
  }
  if (out.per_file < 0) {  // more files took less: no per-file cost to see
    out.per_file = 0;
    out.per_process = mean_o;
  }
  if (out.per_process < 0) {  // all of it scales with files
    out.per_process = 0;
    out.per_file = sf > 0 ? so / sf : 0;
  }
  return out;
}

}  // namespace testmap::plan
