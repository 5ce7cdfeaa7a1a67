#include "mapper/config/base_edit.h"

#include <algorithm>
#include <map>

#include "core/errors.h"
#include "mapper/config/config_rules.h"

namespace testmap::config {
namespace {

// The base's text by lines, with the block-indentation rules an edit
// needs: where an item of a block list starts and ends.
class Lines {
 public:
  explicit Lines(const std::string& text) : text_(text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts_.push_back(i + 1);
  }
  size_t count() const { return starts_.size(); }
  // Offset of 1-based line `n` (count()+1: the end of the text).
  size_t Start(int n) const { return n - 1 < int(starts_.size()) ? starts_[n - 1] : text_.size(); }
  std::string Line(int n) const {
    size_t b = Start(n), e = Start(n + 1);
    std::string l = text_.substr(b, e - b);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    return l;
  }
  static bool Blank(const std::string& l) {
    size_t p = l.find_first_not_of(" \t\r");
    return p == std::string::npos || l[p] == '#';
  }
  static int Indent(const std::string& l) {
    size_t p = l.find_first_not_of(' ');
    return p == std::string::npos ? 0 : int(p);
  }
  // The column (0-based) of the `-` of the block list item whose first key
  // is at `mark`, or -1 when the item is not written `- key: ...`.
  int DashAt(const Mark& mark) const {
    std::string l = Line(mark.line);
    int key = mark.column - 1;
    if (key < 2 || key > int(l.size())) return -1;
    std::string before = l.substr(0, key);
    size_t dash = before.find_last_not_of(' ');
    if (dash == std::string::npos || before[dash] != '-') return -1;
    if (before.find_first_not_of(' ') != dash) return -1;
    return int(dash);
  }
  // The line after the item that starts on `line` with its dash at `dash`:
  // the first later line, not blank or a comment, indented at most `dash`;
  // comments and blank lines right before it belong to what follows.
  int ItemEnd(int line, int dash) const {
    int n = line + 1;
    for (; n <= int(count()); ++n) {
      std::string l = Line(n);
      if (!Blank(l) && Indent(l) <= dash) break;
    }
    while (n - 1 > line && Blank(Line(n - 1))) --n;
    return n;
  }

 private:
  const std::string& text_;
  std::vector<size_t> starts_;
};

struct Splice {
  size_t begin, end;
  std::string text;
};

std::string Names(const GeneratedEntry& e) {
  std::string s;
  for (const auto& n : e.names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

BaseEdit EditBase(const std::string& base_text, const Config& base,
                  const GeneratedConfig& generated, const admit::Admission& admission,
                  const std::string& root_token) {
  BaseEdit out;
  out.text = base_text;
  if (!out.text.empty() && out.text.back() != '\n') out.text.push_back('\n');
  Lines lines(out.text);
  ConfigRules rules(base, root_token);
  std::vector<Splice> splices;
  // Instantiations per (file, generic method), for comparing modes.
  std::map<std::pair<std::string, std::string>, std::vector<const admit::TestAdmission*>> tests;
  for (const auto& t : admission.tests)
    if (!t.generic_class.empty()) tests[{t.file, t.generic_method}].push_back(&t);

  auto place_error = [&](const Mark& m, const std::string& what) {
    return core::InputError(base.path + ":" + std::to_string(m.line) + ":" +
                            std::to_string(m.column) + ": cannot " + what +
                            ": the base writes this list in flow style; write it as a block list");
  };
  std::vector<GeneratedFile> new_files;
  for (const auto& gf : generated.files) {
    const FileEntry* bf = rules.FileFor(gf.file);
    if (!bf) {
      new_files.push_back(gf);
      out.changes.push_back("added file " + gf.path + " (" + std::to_string(gf.entries.size()) +
                            " entries)");
      continue;
    }
    std::vector<const GeneratedEntry*> appended;
    for (const auto& ge : gf.entries) {
      const TestName* matched = nullptr;
      const TestEntry* be = rules.EntryFor(*bf, ge.method, &matched);
      if (!be) {
        appended.push_back(&ge);
        out.changes.push_back("added " + Names(ge) + ": " + ModeName(ge.mode) + " (" +
                              (ge.comment.empty() ? "" : ge.comment.front()) + ")");
        continue;
      }
      // Agreement: every instantiation with evidence gets from the base the
      // mode the evidence gives it.
      bool agrees = true;
      std::string was;
      for (const auto* t : tests[{gf.file, ge.method}]) {
        if (t->state == admit::State::kUnknown) continue;
        Decision d = rules.Decide({t->file, t->generic_method, t->dtypes, t->opinfo, t->module});
        auto it = generated.intended.find(t->nodeid);
        if (it == generated.intended.end() || d.mode == it->second) continue;
        agrees = false;
        was = ModeName(d.mode);
      }
      if (agrees) continue;
      std::string because = ge.comment.empty() ? "" : " (" + ge.comment.front() + ")";
      int dash = lines.DashAt(be->mark);
      if (be->names.size() != ge.names.size() || matched->pattern || dash < 0) {
        out.changes.push_back("kept " + Names(ge) + " at " + base.path + ":" +
                              std::to_string(be->mark.line) + " (its entry is shared or a " +
                              "pattern): the evidence says " + ModeName(ge.mode) + because);
        continue;
      }
      int end = lines.ItemEnd(be->mark.line, dash);
      splices.push_back({lines.Start(be->mark.line), lines.Start(end), EmitEntry(ge, dash)});
      out.changes.push_back("changed " + Names(ge) + " at " + base.path + ":" +
                            std::to_string(be->mark.line) + ": " + was + " -> " +
                            ModeName(ge.mode) + because);
    }
    if (appended.empty()) continue;
    std::string text;
    if (!bf->tests.empty()) {
      const TestEntry& last = bf->tests.back();
      int dash = lines.DashAt(last.mark);
      if (dash < 0) throw place_error(last.mark, "append to its tests");
      for (const auto* ge : appended) text += EmitEntry(*ge, dash);
      size_t at = lines.Start(lines.ItemEnd(last.mark.line, dash));
      splices.push_back({at, at, text});
    } else {
      // A file entry without tests: a `tests:` key after its last line.
      int dash = lines.DashAt(bf->entry_mark);
      if (dash < 0) throw place_error(bf->entry_mark, "add tests to it");
      text = std::string(dash + 2, ' ') + "tests:\n";
      for (const auto* ge : appended) text += EmitEntry(*ge, dash + 4);
      size_t at = lines.Start(lines.ItemEnd(bf->entry_mark.line, dash));
      splices.push_back({at, at, text});
    }
  }
  if (!new_files.empty()) {
    if (base.files.empty()) throw place_error(base.files_mark, "add files");
    const FileEntry& last = base.files.back();
    int dash = lines.DashAt(last.entry_mark);
    if (dash < 0) throw place_error(last.entry_mark, "append to its files");
    std::string text;
    for (const auto& f : new_files) text += EmitFileEntry(f, dash);
    size_t at = lines.Start(lines.ItemEnd(last.entry_mark.line, dash));
    splices.push_back({at, at, text});
  }
  std::sort(splices.begin(), splices.end(),
            [](const Splice& a, const Splice& b) { return a.begin > b.begin; });
  for (const auto& s : splices) out.text.replace(s.begin, s.end - s.begin, s.text);
  return out;
}

}  // namespace testmap::config
