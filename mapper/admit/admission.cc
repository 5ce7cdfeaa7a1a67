#include "mapper/admit/admission.h"

#include <algorithm>
#include <unordered_map>

#include "core/errors.h"
#include "core/op_names.h"
#include "indexer/index_op_keys.h"
#include "indexer/index_test_facts.h"
#include "mapper/config/config_rules.h"
#include "mapper/query/evidence_runs.h"
#include "mapper/query/op_resolution.h"

namespace testmap::admit {
namespace {

using indexer::TestFacts;

// How a test did in its own runs: traces first, then timing files.
std::string OwnOutcome(const TestFacts& t) { return t.runs > 0 ? t.outcome : t.file_outcome; }

// Why a test's evidence is incomplete, or "" when it is complete: a test
// that passed ran to its end, so every operator it needs was dispatched.
std::string IncompleteEvidence(const TestFacts& t) {
  if (t.runs == 0) return "never traced";
  if (t.outcome == "passed" || t.outcome == "xpassed") return "";
  if (t.outcome == "skipped") return "skipped when traced: its body did not run";
  if (t.outcome == "crashed") return "crashed when traced: its evidence is cut short";
  if (t.outcome.empty()) return "no outcome recorded";
  return t.outcome + " when traced: its evidence ends where it stopped";
}

class Admitter {
 public:
  Admitter(const indexer::IndexReader& index, const AdmitRequest& request)
      : index_(index), request_(request), runs_(index, "") {}

  Admission Run();

 private:
  void ReadFacts();
  void ResolveDeclaredNames();
  void JudgeOps();
  void CheckListedOps() const;
  // With `take`, the facts' strings move into the answer (they are not
  // needed after; --device still needs them).
  TestAdmission Decide(size_t i, bool take);
  config::DtypeRule DtypeRuleOf(const TestFacts& t) const;
  void AnswerForDevice(std::vector<TestAdmission>& decided);

  const indexer::IndexReader& index_;
  const AdmitRequest& request_;
  // The runs whose evidence counts, as for query (docs/diff.md): a rescan's
  // retired runs and removed tests leave admission too.
  query::EvidenceRuns runs_;
  Admission out_;
  std::vector<TestFacts> facts_;
  std::unordered_map<std::string_view, size_t> by_nodeid_;
  std::vector<std::vector<MissingOp>> missing_;  // per test
  std::optional<config::ConfigRules> rules_;
};

void Admitter::ReadFacts() {
  indexer::ForEachTestFacts(index_.store(), [&](TestFacts&& t) {
    if (!runs_.KeepTest(t.nodeid)) return;
    facts_.push_back(std::move(t));
  });
  by_nodeid_.reserve(facts_.size());
  for (size_t i = 0; i < facts_.size(); ++i) by_nodeid_.emplace(facts_[i].nodeid, i);
  missing_.resize(facts_.size());
}

// A config's supported_ops (and supported_modules) name OpInfos
// (ModuleInfos): what their own tests dispatch runs on the device when they
// are supported, and so does the operator their aten_name names.
void Admitter::ResolveDeclaredNames() {
  Capabilities& caps = out_.caps;
  if (caps.opinfos.empty()) return;
  for (const auto& t : facts_) {
    bool declared = (!t.opinfo.empty() && caps.opinfos.count(t.opinfo)) ||
                    (!t.module.empty() &&
                     (caps.opinfos.count(t.module) || caps.opinfos.count("torch." + t.module)));
    if (!declared || t.runs == 0) continue;
    std::string why = "dispatched by the tests of " + (t.opinfo.empty() ? t.module : t.opinfo) +
                      " (" + caps.origin + ")";
    for (const auto& e : index_.EdgesOfTest(t.nodeid)) {
      if (!runs_.Keep(t.nodeid, e.run)) continue;
      bool dispatched =
          std::any_of(e.tuples.begin(), e.tuples.end(),
                      [](const indexer::EdgeTuple& x) { return x.evidence != "static"; });
      if (dispatched) caps.kernels.emplace(e.Op(), why);
    }
  }
  if (request_.torch) {
    for (const auto& op : request_.torch->ops) {
      if (!caps.opinfos.count(op.name) || op.aten_name.empty()) continue;
      std::string packet =
          op.aten_name.find("::") == std::string::npos ? "aten::" + op.aten_name : op.aten_name;
      caps.packets.emplace(packet, "aten_name of OpInfo " + op.name + " (" + caps.origin + ")");
    }
  }
}

// A listed operator neither torch nor the evidence knows is a typo, not a
// capability: exit 3 with the closest names.
void Admitter::CheckListedOps() const {
  for (const auto& text : out_.caps.listed_ops) {
    auto op = core::ParseOpName(text);
    if (!op) continue;  // AddListedOps already refused it
    std::string name = op->is_packet ? op->Packet() : op->Canonical();
    bool known = false;
    if (request_.torch)
      known = op->is_packet ? !request_.torch->PacketOverloads(name).empty()
                            : request_.torch->FindOperator(name) != nullptr;
    for (auto it = out_.ops.lower_bound(name); !known && it != out_.ops.end(); ++it) {
      auto seen = core::ParseOpName(it->first);
      if (!seen || !it->first.starts_with(op->Packet())) break;
      known = op->Matches(*seen);
    }
    if (known) continue;
    std::vector<std::string> names;
    for (const auto& [seen, _] : out_.ops) names.push_back(seen);
    if (request_.torch)
      for (const auto& e : request_.torch->operators) names.push_back(e.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    throw core::UnknownNameError("operator", text, query::ClosestOps(text, names),
                                 "neither torch nor the index knows operator `" + name + "`");
  }
}

void Admitter::JudgeOps() {
  for (const indexer::OpKey& key : indexer::ListOpKeys(index_.store())) {
    if (key.is_static()) continue;  // an OpInfo name, not a dispatched operator
    std::string op = key.Canonical();
    Runnability verdict = Judge(out_.caps, request_.torch, op);
    out_.ops[op] = verdict;
    if (verdict.runnable()) continue;
    indexer::ForEachEncodedEdgeOfOp(
        index_.store(), key,
        [&](std::string_view nodeid, std::string_view run, std::string_view value) {
          auto it = by_nodeid_.find(nodeid);
          if (it == by_nodeid_.end()) return;  // index verify reports edges without a test
          if (runs_.filters() && !runs_.Keep(std::string(nodeid), std::string(run))) return;
          auto& list = missing_[it->second];
          if (list.empty() || list.back().op != op)
            list.push_back({op, verdict.composite_explicit, {}});
          list.back().edges.emplace_back(value);
        });
  }
}

config::DtypeRule Admitter::DtypeRuleOf(const TestFacts& t) const {
  if (rules_) {
    const config::FileEntry* file = rules_->FileFor(t.file);
    const config::TestEntry* entry =
        file && !t.generic_method.empty() ? rules_->EntryFor(*file, t.generic_method) : nullptr;
    return rules_->DtypeRuleFor(entry);
  }
  config::DtypeRule rule;
  rule.ceiling = out_.caps.dtypes;
  rule.opinfo_dtypes = out_.caps.opinfo_dtypes;
  rule.ceiling_source =
      out_.caps.dtypes_origin.empty() ? "the supported dtypes" : out_.caps.dtypes_origin;
  return rule;
}

TestAdmission Admitter::Decide(size_t i, bool take) {
  TestFacts& t = facts_[i];
  TestAdmission a;
  a.dtype_block = config::DtypeBlock(DtypeRuleOf(t), t.dtypes, t.opinfo);
  std::string incomplete = IncompleteEvidence(t);
  if (!out_.caps.backend.empty() && t.device == out_.caps.backend)
    a.backend_outcome = OwnOutcome(t);
  auto give = [take](std::string& from, std::string& to) { to = take ? std::move(from) : from; };
  a.evidence_id = t.nodeid;
  give(t.nodeid, a.nodeid);
  give(t.generic_id, a.generic_id);
  give(t.file, a.file);
  give(t.generic_class, a.generic_class);
  give(t.generic_method, a.generic_method);
  give(t.opinfo, a.opinfo);
  give(t.module, a.module);
  give(t.outcome, a.outcome);
  a.dtypes = take ? std::move(t.dtypes) : t.dtypes;
  a.seconds = t.duration;
  a.missing = std::move(missing_[i]);
  a.complete_evidence = incomplete.empty();
  if (!a.dtype_block.empty() || !a.missing.empty()) {
    a.state = State::kBlocked;
  } else if (!incomplete.empty()) {
    a.state = State::kUnknown;
    a.unknown_reason = incomplete;
  } else {
    a.state = State::kAdmitted;
  }
  return a;
}

// The backend's own instantiations (`TestFooPRIVATEUSE1::test_x_openreg_float32`)
// take the verdict of the traced test with the same generic test and
// params; the dtype rule applies to their own dtypes (the same ones).
void Admitter::AnswerForDevice(std::vector<TestAdmission>& decided) {
  std::unordered_map<std::string, size_t> twin;  // generic \0 params -> index in facts_
  for (size_t i = 0; i < facts_.size(); ++i) {
    const TestFacts& t = facts_[i];
    if (t.generic_id.empty() || t.device == request_.device) continue;
    std::string key = t.generic_id + '\0' + t.ParamsWithoutDevice();
    auto [it, fresh] = twin.emplace(key, i);
    // Prefer a traced twin (a CPU one over others when several devices were traced).
    if (!fresh && facts_[it->second].runs == 0 && t.runs > 0) it->second = i;
  }
  std::vector<TestAdmission> answers;
  size_t scanned = 0, with_evidence = 0;
  for (size_t i = 0; i < facts_.size(); ++i) {
    const TestFacts& t = facts_[i];
    if (t.device != request_.device || !t.scanned) continue;
    ++scanned;
    auto it = twin.find(t.generic_id + '\0' + t.ParamsWithoutDevice());
    TestAdmission a;
    if (it == twin.end()) {
      a = decided[i];
      a.state = a.dtype_block.empty() ? State::kUnknown : State::kBlocked;
      a.unknown_reason = "no traced test of " + t.generic_id + " with the same params";
      a.missing.clear();
      a.complete_evidence = false;
    } else {
      a = decided[it->second];
      a.nodeid = t.nodeid;
      a.file = t.file;
      a.backend_outcome = OwnOutcome(t);
      if (facts_[it->second].runs > 0) ++with_evidence;
    }
    answers.push_back(std::move(a));
  }
  if (scanned == 0) {
    throw core::UsageError(
        "the index has no scanned test for device `" + request_.device +
        "`: scan for it and ingest the scan (testmap scan --device privateuse1:" + request_.device +
        " --format jsonl > scan-" + request_.device + ".jsonl; testmap ingest scan-" +
        request_.device + ".jsonl)");
  }
  out_.coverage = {scanned, with_evidence};
  decided = std::move(answers);
}

Admission Admitter::Run() {
  out_.caps = request_.caps;
  out_.device = request_.device;
  if (request_.config) rules_.emplace(*request_.config, request_.root_token);
  ReadFacts();
  ResolveDeclaredNames();
  JudgeOps();
  CheckListedOps();
  std::vector<TestAdmission> decided;
  decided.reserve(facts_.size());
  for (size_t i = 0; i < facts_.size(); ++i) decided.push_back(Decide(i, request_.device.empty()));
  if (!request_.device.empty()) {
    AnswerForDevice(decided);
  } else {
    for (const auto& t : facts_) {
      if (!t.scanned) continue;
      ++out_.coverage.scanned;
      if (t.runs > 0) ++out_.coverage.with_evidence;
    }
  }
  for (const auto& t : facts_)
    if (t.runs > 0 && !t.device.empty()) out_.evidence_devices.insert(t.device);
  out_.tests = std::move(decided);
  std::map<std::string, FileSummary> files;
  for (const auto& a : out_.tests) {
    FileSummary& f = files[a.file];
    f.file = a.file;
    if (a.state == State::kAdmitted) {
      ++f.admitted;
      if (a.seconds) f.admitted_seconds += *a.seconds;
    } else if (a.state == State::kBlocked) {
      ++f.blocked;
    } else {
      ++f.unknown;
    }
  }
  for (auto& [name, f] : files) out_.files.push_back(std::move(f));
  if (out_.evidence_devices.count("cpu")) {
    out_.notes.push_back(
        "evidence traced on cpu: every operator a test dispatched counts, its own CPU "
        "reference computations included, so the answer errs on the side of blocking");
  }
  if (out_.caps.upper_bounds)
    out_.notes.push_back(std::to_string(out_.caps.upper_bounds) +
                         " registrations are upper bounds (made under a condition the scan could "
                         "not evaluate): not counted as kernels");
  out_.notes.push_back(
      "runnable: a kernel on " + out_.caps.dispatch_key +
      ", a backend fallback, or a CompositeImplicitAutograd decomposition; operators with only "
      "a CompositeExplicitAutograd kernel in torch count as missing (conservative)");
  return std::move(out_);
}

}  // namespace

Observed ObservedOf(const MissingOp& m) {
  Observed o;
  for (const auto& value : m.edges) {
    for (const auto& t : indexer::DecodeEdge(value)) {
      o.dtypes.insert(t.dtypes);
    }
  }
  return o;
}

const char* StateName(State s) {
  switch (s) {
    case State::kAdmitted:
      return "admitted";
    case State::kBlocked:
      return "blocked";
    case State::kUnknown:
      return "unknown";
  }
  return "?";
}

size_t Admission::Count(State s) const {
  return std::count_if(tests.begin(), tests.end(),
                       [&](const TestAdmission& t) { return t.state == s; });
}

Admission Admit(const indexer::IndexReader& index, const AdmitRequest& request) {
  return Admitter(index, request).Run();
}

}  // namespace testmap::admit
