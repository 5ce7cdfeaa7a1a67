#include "mapper/plan/render.h"

namespace testmap::plan {

void RenderNodeIds(const Plan& plan, int split, std::ostream& out) {
  for (const PlannedSplit& s : plan.splits) {
    if (split && s.index != split) continue;
    for (int i : s.items) {
      for (const std::string& label : plan.items[i].labels) out << label << "\n";
    }
  }
}

}  // namespace testmap::plan
