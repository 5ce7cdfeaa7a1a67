#include "analyzers/backend/registration_output.h"

#include <algorithm>
#include <map>

#include "analyzers/backend/registration_json.h"

namespace testmap::backend {
namespace {

std::string Where(const Registration& r) {
  if (r.file.empty()) return "";
  return r.line > 0 ? r.file + ":" + std::to_string(r.line) : r.file;
}

std::string Pad(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

// What a table row names: the op, else the stub or hook, else `*` (every op).
std::string Subject(const Registration& r) {
  if (!r.op.empty()) return r.op;
  if (!r.symbol.empty()) return r.symbol;
  return "*";
}

void WriteTable(const RecordSet& set, std::ostream& out) {
  std::map<std::string, std::vector<const Registration*>> by_key;
  for (const auto& r : set.records)
    by_key[r.dispatch_key.empty() ? (r.kind == Kind::kDefinition ? "(definitions)" : "(no key)")
                                  : r.dispatch_key]
        .push_back(&r);
  size_t subject_w = 8, mech_w = 9;
  for (const auto& r : set.records) {
    subject_w = std::max(subject_w, Subject(r).size());
    mech_w = std::max(mech_w, r.mechanism.size() + (r.macro.empty() ? 0 : r.macro.size() + 3));
  }
  for (const auto& [key, rows] : by_key) {
    std::map<std::string, size_t> kinds;
    for (const auto* r : rows) ++kinds[std::string(KindName(r->kind))];
    out << key << ": " << rows.size() << (rows.size() == 1 ? " registration" : " registrations");
    std::string sep = " (";
    for (const auto& [k, n] : kinds) {
      out << sep << n << " " << k;
      sep = ", ";
    }
    out << ")\n";
    for (const auto* r : rows) {
      std::string mechanism = r->mechanism + (r->macro.empty() ? "" : " (" + r->macro + ")");
      std::string flags;
      if (r->upper_bound) flags += " [upper bound]";
      if (!r->in_registry) flags += " [not in torch]";
      out << "  " << Pad(Subject(*r), subject_w) << Pad(std::string(KindName(r->kind)), 12)
          << Pad(mechanism, mech_w) << Where(*r) << flags << "\n";
    }
  }
  size_t dispatcher = std::count_if(set.records.begin(), set.records.end(),
                                    [](const Registration& r) { return InDispatcher(r.kind); });
  out << set.records.size() << " registrations (" << dispatcher << " in the dispatcher) under "
      << by_key.size() << (by_key.size() == 1 ? " key" : " keys");
  if (!set.torch_version.empty()) out << "; torch " << set.torch_version;
  out << "\n";
}

}  // namespace

void WriteRecords(const RecordSet& set, RecordFormat format, std::ostream& out) {
  if (format == RecordFormat::kTable) {
    WriteTable(set, out);
    return;
  }
  if (format == RecordFormat::kJsonl) {
    for (const auto& r : set.records) out << ToJson(r).dump() << "\n";
    return;
  }
  nlohmann::ordered_json doc;
  doc["format"] = kRecordFormat;
  doc["evidence"] = EvidenceName(set.evidence);
  doc["torch_version"] = set.torch_version;
  if (!set.root.empty()) doc["root"] = set.root;
  doc["records"] = nlohmann::ordered_json::array();
  for (const auto& r : set.records) doc["records"].push_back(ToJson(r));
  doc["diagnostics"] = nlohmann::ordered_json::array();
  for (const auto& d : set.diagnostics) doc["diagnostics"].push_back(ToJson(d));
  // Counts per dispatch key and kind ("" for definitions and keyless hooks).
  std::map<std::string, std::map<std::string, int>> counts;
  for (const auto& r : set.records) ++counts[r.dispatch_key][std::string(KindName(r.kind))];
  doc["summary"] = counts;
  out << doc.dump(2) << "\n";
}

}  // namespace testmap::backend
