#include "mapper/admit/capabilities.h"

#include "core/closest_names.h"
#include "core/dtype_names.h"
#include "core/errors.h"
#include "core/op_names.h"
#include "indexer/backend_input.h"

namespace testmap::admit {

Capabilities CapabilitiesFromRecords(const std::vector<backend::Registration>& records,
                                     const std::string& dispatch_key, const std::string& origin) {
  Capabilities caps;
  caps.dispatch_key = dispatch_key;
  caps.origin = origin;
  for (const auto& r : records) {
    if (r.upper_bound && r.kind != backend::Kind::kHook) {
      ++caps.upper_bounds;
      continue;
    }
    std::string op = core::CanonicalOpName(r.op).value_or(r.op);
    std::string source = indexer::RegistrationSource(r);
    if (r.kind == backend::Kind::kKernel) {
      if (r.dispatch_key == dispatch_key || r.dispatch_key == "CompositeExplicitAutograd")
        caps.kernels.emplace(op, source);
      else if (r.dispatch_key == "CompositeImplicitAutograd")
        caps.decompositions.emplace(op, source);
    } else if (r.kind == backend::Kind::kFallback && r.dispatch_key == dispatch_key &&
               r.op.empty()) {
      if (!caps.fallback) caps.fallback = source;
    }
  }
  return caps;
}

Capabilities CapabilitiesFromConfig(const config::Config& config) {
  Capabilities caps;
  caps.origin = "global of " + config.path;
  const config::Global& g = config.global;
  if (!g.supported_dtypes.empty()) {
    caps.dtypes.emplace();
    for (const auto& d : g.supported_dtypes) caps.dtypes->insert(d.name);
    caps.dtypes_origin = "global.supported_dtypes of " + config.path;
  }
  for (const auto* list : {&g.supported_ops, &g.supported_modules}) {
    if (!*list) continue;
    for (const auto& op : **list) {
      caps.opinfos.insert(op.name);
      if (op.dtypes.empty()) continue;
      auto& set = caps.opinfo_dtypes[op.name];
      for (const auto& d : op.dtypes) set.insert(d.name);
    }
  }
  return caps;
}

void AddListedOps(Capabilities& caps, const std::vector<std::string>& ops) {
  for (const auto& text : ops) {
    caps.listed_ops.push_back(text);
    auto op = core::ParseOpName(text);
    if (!op)
      throw core::UnknownNameError("operator", text, {}, "`" + text + "` is not an operator name");
    if (op->is_packet)
      caps.packets.emplace(op->Packet(), "--ops " + text);
    else
      caps.kernels.emplace(op->Canonical(), "--ops " + text);
  }
}

void AddListedDtypes(Capabilities& caps, const std::vector<std::string>& dtypes) {
  if (!caps.dtypes) caps.dtypes.emplace();
  caps.dtypes_origin = "--dtypes";
  for (const auto& text : dtypes) {
    auto d = core::NormalizeDtype(text);
    if (!d)
      throw core::UnknownNameError("dtype", text, core::ClosestNames(text, core::AllDtypes()));
    caps.dtypes->insert(*d);
  }
}

}  // namespace testmap::admit
