// What admit and rank_next_ops share: the arguments that say what the
// backend supports (as `testmap admit` takes them), and the one admission
// they answer from (mapper/admit: admit_inputs.h, admission.h), made once
// per open index and question of capabilities and shared by both tools,
// whatever they list or page.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mapper/admit/admission.h"
#include "mapper/admit/admit_inputs.h"
#include "mcp/tool.h"

namespace testmap::mcp {

// Schema properties of the capabilities: supported, backend, ops, dtypes,
// dispatch_key, device, root_token.
json AdmitInputProperties();

// Cache key material: the supported file as it is now.
std::string AdmitInputsStamp(const json& arguments, ToolContext& ctx);

struct AdmissionState {
  std::unique_ptr<admit::AdmitSetup> setup;
  admit::Admission admission;
  std::vector<std::string> warnings;  // what reading a supported config warned about
  // The files read: the supported file [{path, bytes}], torch's snapshot
  // [{path, bytes, torch: {version, git_version}}].
  json files = json::array();
};

// The admission of the capabilities in `arguments`: the supported file is
// read only under --allow. Throws the core errors admit::SetUpAdmission
// and admit::Admit throw (tool errors).
std::shared_ptr<const AdmissionState> AdmissionFor(const json& arguments, ToolContext& ctx);

// The answer's common part: provenance runs and files, warnings.
void AttachAdmission(const AdmissionState& state, ToolContext& ctx, ToolAnswer& answer);

}  // namespace testmap::mcp
