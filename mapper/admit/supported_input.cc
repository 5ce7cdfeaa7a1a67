#include "mapper/admit/supported_input.h"

#include "core/read_file.h"
#include "indexer/backend_input.h"
#include "mapper/config/config_reader.h"

namespace testmap::admit {

Supported ReadSupported(const std::string& path, const std::string& dispatch_key) {
  Supported out;
  std::string text = core::ReadInputFile(path);
  if (indexer::LooksLikeBackendRecords(text)) {
    out.caps = CapabilitiesFromRecords(indexer::ReadBackendRecords(text, path), dispatch_key,
                                       "backend records " + path);
    return out;
  }
  out.config = config::ConfigOrThrow(config::ParseConfig(text, path), &out.warnings);
  out.caps = CapabilitiesFromConfig(*out.config);
  out.caps.dispatch_key = dispatch_key;
  return out;
}

}  // namespace testmap::admit
