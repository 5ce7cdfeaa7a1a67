#include "mapper/admit/admit_render.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "mapper/yaml/yaml_emit.h"

namespace testmap::admit {
namespace {

using nlohmann::json;

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", s);
  return buf;
}

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string Left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

// How many missing operators the table lists.
constexpr size_t kTableOps = 25;

bool Listed(const AdmitReport& r, const TestAdmission& t) { return !r.only || t.state == *r.only; }

json CapabilitiesJson(const Capabilities& c) {
  json j = {{"backend", c.backend},
            {"dispatch_key", c.dispatch_key},
            {"origin", c.origin},
            {"kernels", c.kernels.size()},
            {"packets", json::array()},
            {"decompositions", c.decompositions.size()},
            {"fallback", c.fallback ? json(*c.fallback) : json(nullptr)},
            {"dtypes", c.dtypes ? json(*c.dtypes) : json(nullptr)},
            {"opinfos", c.opinfos}};
  for (const auto& [p, _] : c.packets) j["packets"].push_back(p);
  return j;
}

// Missing operators over the blocked tests: how many each blocks.
std::vector<std::pair<std::string, size_t>> MissingSummary(const Admission& a) {
  std::map<std::string, size_t> n;
  for (const auto& t : a.tests)
    for (const auto& m : t.missing) ++n[m.op];
  std::vector<std::pair<std::string, size_t>> out(n.begin(), n.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  return out;
}

std::string DtypesText(const std::set<std::vector<std::string>>& combos) {
  std::string s;
  for (const auto& c : combos) {
    if (!s.empty()) s += " ";
    std::string one;
    for (const auto& d : c) one += (one.empty() ? "" : ",") + d;
    s += "(" + one + ")";
  }
  return s;
}

// One line of why, for the table.
std::string Why(const TestAdmission& t) {
  std::string s;
  for (const auto& m : t.missing) {
    if (!s.empty()) s += "; ";
    s += "needs " + m.op;
    Observed seen = ObservedOf(m);
    if (!seen.dtypes.empty()) s += " " + DtypesText(seen.dtypes);
    if (!seen.roles.empty()) {
      std::string roles;
      for (const auto& r : seen.roles) roles += (roles.empty() ? "" : ",") + r;
      s += " in " + roles;
    }
  }
  if (!t.dtype_block.empty()) s += (s.empty() ? "" : "; ") + t.dtype_block;
  if (!t.unknown_reason.empty()) s += (s.empty() ? "" : "; ") + t.unknown_reason;
  return s;
}

void RenderTable(const AdmitReport& r, std::ostream& out) {
  const Admission& a = *r.admission;
  const Capabilities& c = a.caps;
  out << "backend " << (c.backend.empty() ? "(unnamed)" : c.backend) << " (" << c.dispatch_key
      << "): " << c.origin << ": " << c.kernels.size() << " kernels, " << c.packets.size()
      << " whole packets, " << (c.fallback ? "a fallback (" + *c.fallback + ")" : "no fallback");
  if (c.dtypes) out << ", " << c.dtypes->size() << " dtypes";
  out << "\n";
  out << a.tests.size() << " tests" << (a.device.empty() ? "" : " on " + a.device) << ": "
      << a.Count(State::kAdmitted) << " admitted, " << a.Count(State::kBlocked) << " blocked, "
      << a.Count(State::kUnknown) << " unknown; evidence for " << a.coverage.with_evidence << " of "
      << a.coverage.scanned << " scanned tests (" << Seconds(100 * a.coverage.Share()) << "%)\n";
  for (const auto& n : a.notes) out << "note: " << n << "\n";
  if (r.would_admit) {
    double seconds = 0;
    for (const auto* t : *r.would_admit) seconds += t->seconds.value_or(0);
    std::string ops;
    for (const auto& o : r.new_ops) ops += (ops.empty() ? "" : ",") + o;
    out << "\nenabling " << ops << " admits " << r.would_admit->size() << " tests ("
        << Seconds(seconds) << " s):\n";
    for (const auto* t : *r.would_admit) out << "  " << t->nodeid << "\n";
    return;
  }
  if (r.ranking) {
    out << "\n"
        << r.ranking->unlockable
        << " blocked tests would be admitted by operators alone\n"
           "operators to enable next: tests each admits alone (seconds), tests that need it\n";
    size_t width = 10;
    for (const auto& g : r.ranking->ops) width = std::max(width, g.op.size() + 2);
    for (size_t i = 0; i < r.ranking->ops.size(); ++i) {
      if (i == kTableOps) {
        out << "  ... " << r.ranking->ops.size() - kTableOps
            << " more (--format json lists them all)\n";
        break;
      }
      const OpGain& g = r.ranking->ops[i];
      out << "  " << Pad(g.op, width) << Left(std::to_string(g.tests), 6) << " ("
          << Seconds(g.seconds) << " s)" << Left(std::to_string(g.blocking), 8) << "\n";
    }
    out << "greedy sequence (cumulative)\n";
    for (size_t i = 0; i < r.ranking->steps.size(); ++i) {
      const RankStep& s = r.ranking->steps[i];
      std::string ops;
      for (const auto& o : s.ops) ops += (ops.empty() ? "+" : " +") + o;
      out << Left(std::to_string(i + 1), 4) << ". " << Pad(ops, width + 2)
          << Left(std::to_string(s.tests), 6) << " tests  total " << s.total_tests << " tests, "
          << Seconds(s.total_seconds) << " s\n";
    }
    return;
  }
  out << "\n"
      << Pad("file", 40) << Left("admitted", 9) << Left("blocked", 9) << Left("unknown", 9)
      << Left("admitted s", 12) << "\n";
  for (const auto& f : a.files)
    out << Pad(f.file, 40) << Left(std::to_string(f.admitted), 9)
        << Left(std::to_string(f.blocked), 9) << Left(std::to_string(f.unknown), 9)
        << Left(Seconds(f.admitted_seconds), 12) << "\n";
  auto missing = MissingSummary(a);
  if (!missing.empty()) {
    out << "\nmissing operators (blocked tests that dispatch them)\n";
    size_t shown = 0;
    for (const auto& [op, n] : missing) {
      if (++shown > kTableOps) {
        out << "  ... " << missing.size() - kTableOps << " more (--format json lists them all)\n";
        break;
      }
      auto it = a.ops.find(op);
      bool cea = it != a.ops.end() && it->second.composite_explicit;
      out << "  " << Pad(op, 40) << Left(std::to_string(n), 6)
          << (cea ? "  (torch has a CompositeExplicitAutograd kernel)" : "") << "\n";
    }
  }
  if (r.only) {
    out << "\n" << StateName(*r.only) << " tests\n";
    for (const auto& t : a.tests) {
      if (!Listed(r, t)) continue;
      out << "  " << t.nodeid;
      std::string why = Why(t);
      if (!why.empty()) out << "  -- " << why;
      out << "\n";
    }
  } else {
    out << "\n(--state blocked|unknown|admitted lists the tests with their reasons)\n";
  }
}

}  // namespace

json TestJson(const TestAdmission& t) {
  json j = {{"nodeid", t.nodeid},
            {"state", StateName(t.state)},
            {"generic_id", t.generic_id},
            {"file", t.file},
            {"dtypes", t.dtypes}};
  if (t.evidence_id != t.nodeid) j["evidence_id"] = t.evidence_id;
  if (!t.opinfo.empty()) j["opinfo"] = t.opinfo;
  if (!t.module.empty()) j["module"] = t.module;
  json reasons = json::array();
  for (const auto& m : t.missing) {
    Observed seen = ObservedOf(m);
    json dtypes = json::array();
    for (const auto& c : seen.dtypes) dtypes.push_back(c);
    json reason = {{"kind", "op"}, {"op", m.op}, {"dtypes", dtypes}, {"roles", seen.roles}};
    if (m.composite_explicit) reason["composite_explicit"] = true;
    reasons.push_back(reason);
  }
  if (!t.dtype_block.empty()) reasons.push_back({{"kind", "dtype"}, {"rule", t.dtype_block}});
  if (!t.unknown_reason.empty())
    reasons.push_back({{"kind", "evidence"}, {"why", t.unknown_reason}});
  j["reasons"] = reasons;
  j["outcome"] = t.outcome.empty() ? json(nullptr) : json(t.outcome);
  j["backend_outcome"] = t.backend_outcome.empty() ? json(nullptr) : json(t.backend_outcome);
  j["seconds"] = t.seconds ? json(*t.seconds) : json(nullptr);
  return j;
}

json RankingJson(const Ranking& r) {
  json ops = json::array();
  for (const auto& g : r.ops)
    ops.push_back(
        {{"op", g.op}, {"tests", g.tests}, {"seconds", g.seconds}, {"blocking", g.blocking}});
  json steps = json::array();
  for (const auto& s : r.steps)
    steps.push_back({{"ops", s.ops},
                     {"tests", s.tests},
                     {"seconds", s.seconds},
                     {"total_tests", s.total_tests},
                     {"total_seconds", s.total_seconds}});
  return {{"unlockable", r.unlockable}, {"ops", ops}, {"steps", steps}};
}

json AdmitReportJson(const AdmitReport& r, bool with_tests) {
  const Admission& a = *r.admission;
  json files = json::array();
  for (const auto& f : a.files)
    files.push_back({{"file", f.file},
                     {"admitted", f.admitted},
                     {"blocked", f.blocked},
                     {"unknown", f.unknown},
                     {"admitted_seconds", f.admitted_seconds}});
  json missing = json::array();
  for (const auto& [op, n] : MissingSummary(a)) {
    auto it = a.ops.find(op);
    missing.push_back({{"op", op},
                       {"tests", n},
                       {"composite_explicit", it != a.ops.end() && it->second.composite_explicit}});
  }
  json doc = {{"capabilities", CapabilitiesJson(a.caps)},
              {"device", a.device.empty() ? json(nullptr) : json(a.device)},
              {"counts",
               {{"tests", a.tests.size()},
                {"admitted", a.Count(State::kAdmitted)},
                {"blocked", a.Count(State::kBlocked)},
                {"unknown", a.Count(State::kUnknown)}}},
              {"coverage",
               {{"scanned", a.coverage.scanned},
                {"with_evidence", a.coverage.with_evidence},
                {"share", a.coverage.Share()}}},
              {"evidence_devices", a.evidence_devices},
              {"notes", a.notes},
              {"files", files},
              {"missing_ops", missing}};
  if (r.ranking) doc["rank"] = RankingJson(*r.ranking);
  if (r.would_admit) {
    json ids = json::array();
    for (const auto* t : *r.would_admit) ids.push_back(t->nodeid);
    doc["new_op"] = {{"ops", r.new_ops}, {"admits", ids}};
  }
  if (!with_tests) return doc;
  json tests = json::array();
  for (const auto& t : a.tests)
    if (Listed(r, t)) tests.push_back(TestJson(t));
  doc["tests"] = tests;
  return doc;
}

std::vector<std::string> ReportNodeIds(const AdmitReport& r) {
  std::vector<std::string> out;
  if (r.would_admit) {
    for (const auto* t : *r.would_admit) out.push_back(t->nodeid);
    return out;
  }
  State only = r.only.value_or(State::kAdmitted);
  for (const auto& t : r.admission->tests)
    if (t.state == only) out.push_back(t.nodeid);
  return out;
}

void RenderAdmitReport(const AdmitReport& r, const std::string& format, std::ostream& out) {
  if (format == "json") {
    // The document as AdmitReportJson has it, with `tests` written one test
    // a line as each is made: a suite's worth of tests as one JSON tree
    // would cost more than the admission itself.
    std::string head = AdmitReportJson(r, /*with_tests=*/false).dump(2);
    head.resize(head.rfind('}'));
    while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
    out << head << ",\n  \"tests\": [";
    bool first = true;
    for (const auto& t : r.admission->tests) {
      if (!Listed(r, t)) continue;
      out << (first ? "\n    " : ",\n    ") << TestJson(t).dump();
      first = false;
    }
    out << (first ? "]\n}\n" : "\n  ]\n}\n");
  } else if (format == "yaml") {
    yaml::EmitYaml(AdmitReportJson(r), out);
  } else if (format == "jsonl") {
    if (r.would_admit) {
      for (const auto* t : *r.would_admit) out << TestJson(*t).dump() << "\n";
    } else {
      for (const auto& t : r.admission->tests)
        if (Listed(r, t)) out << TestJson(t).dump() << "\n";
    }
  } else if (format == "nodeids") {
    for (const auto& id : ReportNodeIds(r)) out << id << "\n";
  } else {
    RenderTable(r, out);
  }
}

}  // namespace testmap::admit
