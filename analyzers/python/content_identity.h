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
    std::string fixed;                           // attributes, decorators, setUp...: normalized
    std::map<std::string, std::string> helpers;  // other non-test methods: name -> normalized
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

// DescribeOpEntry remembered within one file's scan, with the same answers:
// an @ops test gives a record per op x dtype, and the records of one
// generic test, op and device share their dtypes and all entry lines but
// those that name dtypes. Holds views into `snap`, which must outlive it.
class OpEntryIdentities {
 public:
  void Describe(const torch_snapshot::TorchSnapshot& snap, const torch_snapshot::OpInfoEntry& op,
                TestRecord& r);

 private:
  struct Lines {  // one op's entry lines that apply to a generic test and device
    std::vector<std::string_view> lines;   // in entry order
    std::vector<std::string_view> dtypes;  // each line's DTYPES column; empty if `*`
    bool any_dtype_column = false;
    std::unordered_map<std::string, std::string> hashes;  // which lines apply -> hash
    std::string dtypes_hash;                              // content.dtypes
  };
  Lines& Find(const torch_snapshot::TorchSnapshot& snap, const torch_snapshot::OpInfoEntry& op,
              const TestRecord& r);

  std::unordered_map<std::string, Lines> lines_;  // op, device, generic class, method
  // The last key asked for: a generic test's records come one op at a
  // time, a record per dtype.
  const torch_snapshot::OpInfoEntry* last_op_ = nullptr;
  std::string last_device_, last_class_, last_method_;
  Lines* last_ = nullptr;
};

}  // namespace testmap::python
