// What a backend can run, as admission needs it: the operators it has
// kernels for on its dispatch key, whether a backend fallback covers every
// other operator, and the dtype rules a test's own parameters must pass.
//
// Three sources give capabilities, and all land in this one struct:
//   - backend records (`testmap backend scan|dump` output, or the records
//     `testmap ingest --backend NAME` stored in the index),
//   - the `global` section of a test_suite_config (supported_ops are
//     OpInfo names there; supported_dtypes the dtype ceiling),
//   - `--ops`/`--dtypes` lists (operator spellings core/op_names.h reads;
//     a packet means all its overloads).
// Whether an operator is runnable is decided in runnable.h, nowhere else.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzers/backend/registration.h"
#include "mapper/config/config_model.h"

namespace testmap::admit {

struct Capabilities {
  std::string backend;                       // a name for answers: `openreg`, `spyre`
  std::string dispatch_key = "PrivateUse1";  // the backend's key
  std::string origin;                        // what they were read from, for answers

  // Operator overload (canonical) -> where its kernel was registered.
  std::map<std::string, std::string> kernels;
  // Packets (`aten::add`) given whole: every overload has a kernel.
  std::map<std::string, std::string> packets;
  // Operators the backend decomposes itself (a kernel on
  // CompositeImplicitAutograd in its records): runnable through their parts.
  std::map<std::string, std::string> decompositions;
  // A boxed fallback on the backend's key: every operator reaches it.
  std::optional<std::string> fallback;

  // Dtype rules (test_suite_config semantics): the global ceiling, absent
  // = no dtype rule; per OpInfo name, the dtypes its @ops tests may take.
  std::optional<std::set<std::string>> dtypes;
  std::string dtypes_origin;  // where the ceiling came from, for reasons
  std::map<std::string, std::set<std::string>> opinfo_dtypes;
  // OpInfo names a config declares supported (global.supported_ops). They
  // make runnable what their @ops tests dispatch (admission.cc resolves
  // them against the index) and the packet of their aten_name.
  std::set<std::string> opinfos;
  size_t upper_bounds = 0;  // records left out as upper bounds
  // Operators as `--ops` spelled them: admission checks that torch or the
  // index knows each (a typo must not pass as "supported").
  std::vector<std::string> listed_ops;
};

// From backend records: kernels on `dispatch_key` (and on
// CompositeExplicitAutograd, which serves every key), decompositions on
// CompositeImplicitAutograd, a fallback on `dispatch_key`. Fallthroughs,
// definitions, stubs, hooks and registrations on other keys (autograd,
// autocast) give no kernel; nor do registrations the scan marks as upper
// bounds (made under a condition it could not evaluate: they may not
// happen), which are counted in `upper_bounds`.
Capabilities CapabilitiesFromRecords(const std::vector<backend::Registration>& records,
                                     const std::string& dispatch_key, const std::string& origin);

// From a test_suite_config's `global` section: supported_ops and
// supported_modules are OpInfo/ModuleInfo names, supported_dtypes the
// ceiling, supported_ops[].dtypes the dtypes of that OpInfo's tests.
Capabilities CapabilitiesFromConfig(const config::Config& config);

// From `--ops` and `--dtypes` lists (any spelling; throws
// core::UnknownNameError for a name that cannot be an operator or a dtype).
void AddListedOps(Capabilities& caps, const std::vector<std::string>& ops);
void AddListedDtypes(Capabilities& caps, const std::vector<std::string>& dtypes);

}  // namespace testmap::admit
