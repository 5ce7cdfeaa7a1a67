// Content identities of a test: what `testmap diff` compares to tell a
// changed test from an unchanged one, and to say what changed. Each part is
// a short hash (core::ShortHexDigest) of normalized source (source_hash.h:
// tokens, so comments and formatting do not count) or of torch snapshot
// entries:
//
//   body        the def without its name: parameters, annotations, body
//               (a renamed test keeps its body hash)
//   decorators  the function's own decorators, top to bottom
//   setup       class-level setup the test depends on: the defining class's
//               (and its local bases') attributes, class decorators,
//               setUp/tearDown-style methods, and the helper methods the
//               body names as `self.NAME`/`cls.NAME`
//   entry       @ops/@modules: the OpInfo/ModuleInfo's DecorateInfos that
//               apply to this test, class, device and dtype (skips, xfails,
//               tolerance overrides) and its input functions' identities
//   dtypes      @ops/@modules: the OpInfo/ModuleInfo's dtypes (and backward
//               dtypes) on this test's device
//
// The first three are per generic test; the last two per instantiated id.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzers/python/module_model.h"
#include "analyzers/python/python_parser.h"
#include "analyzers/python/scanned_test.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::python {

// Source parts of one file's tests, each function and class normalized
// once (a file's tests share their classes).
class SourceIdentities {
 public:
  SourceIdentities(const ParsedModule& module, const ModuleModel& model)
      : m_(module), model_(model) {}

  // Fills source_hash and content.body/decorators/setup of `r` for the
  // test defined by `fn` in class `owner` (null for module functions).
  void Describe(const FunctionDef& fn, const ClassDef* owner, TestRecord& r);

 private:
  struct FunctionParts {
    std::string source_hash, body, decorators, setup;
    std::string normalized_body;
  };
  struct ClassParts {
    struct Helper {
      std::string text;                // normalized
      std::vector<std::string> reads;  // the `self.`/`cls.` names it reads
    };
    std::string fixed;                      // attributes, decorators, setUp...: normalized
    std::map<std::string, Helper> helpers;  // other non-test methods, by name
  };
  const ClassParts& Class(const ClassDef& c);
  std::string Setup(const ClassDef* owner, std::string_view normalized_body);
  const ClassDef* LocalClass(TSNode base) const;

  const ParsedModule& m_;
  const ModuleModel& model_;
  std::map<const FunctionDef*, std::map<const ClassDef*, FunctionParts>> functions_;
  std::map<const ClassDef*, ClassParts> classes_;
};

// content.entry and content.dtypes of an @ops test over `op` (or an
// @modules test over `module`), from the snapshot: the entry lines that
// apply to r's generic class and method, device and dtype (as
// DecorateInfo.is_active decides, active_if included).
void DescribeOpEntry(const torch_snapshot::TorchSnapshot& snap,
                     const torch_snapshot::OpInfoEntry& op, TestRecord& r);
void DescribeModuleEntry(const torch_snapshot::TorchSnapshot& snap,
                         const torch_snapshot::ModuleInfoEntry& module, TestRecord& r);

// An OpInfo/ModuleInfo entry line (TorchSnapshot::entry_lines) and, for a
// DecorateInfo, its columns.
struct EntryLine {
  explicit EntryLine(std::string_view line);
  std::string_view text;
  bool decorate = false, active = false;
  std::string_view cls, method, device, dtypes;
};

// DescribeOpEntry with what it reads remembered within one file's scan,
// with the same answers: a file's @ops tests ask about the same ops again
// and again (a record per generic test, op, device and dtype), so each
// op's entry lines are split into columns once and its dtypes hashed once
// per device. Holds views into `snap`, which must outlive it.
class OpEntryIdentities {
 public:
  void Describe(const torch_snapshot::TorchSnapshot& snap, const torch_snapshot::OpInfoEntry& op,
                TestRecord& r);

 private:
  const std::vector<EntryLine>& Lines(const torch_snapshot::TorchSnapshot& snap,
                                      const torch_snapshot::OpInfoEntry& op);

  std::unordered_map<const torch_snapshot::OpInfoEntry*, std::vector<EntryLine>> lines_;
  std::unordered_map<std::string, std::string> dtypes_;  // op address, device -> hash
  std::string text_;  // the applying lines, reused from record to record
};

}  // namespace testmap::python
