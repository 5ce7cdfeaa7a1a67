#include "mcp/input_schema.h"

#include <stdexcept>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

namespace testmap::mcp {

struct InputSchema::Compiled {
  valijson::Schema schema;
};

InputSchema::InputSchema(json schema) : schema_(std::move(schema)), compiled_(new Compiled) {
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(schema_);
    parser.populateSchema(adapter, compiled_->schema);
  } catch (const std::exception& e) {
    throw std::logic_error(std::string("bad tool schema: ") + e.what());
  }
}

InputSchema::~InputSchema() = default;
InputSchema::InputSchema(InputSchema&&) noexcept = default;

std::vector<std::string> InputSchema::Check(const json& value) const {
  // A validator per call: valijson's caches are not shared across threads.
  valijson::Validator validator(valijson::Validator::kStrongTypes);
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter adapter(value);
  if (validator.validate(compiled_->schema, adapter, &results)) return {};
  std::vector<std::string> out;
  valijson::ValidationResults::Error error;
  while (results.popError(error) && out.size() < 10) {
    std::string path = "arguments";
    for (const auto& c : error.context) {
      if (c == "<root>") continue;
      // valijson writes "[name]" for properties and "[3]" for items.
      bool index =
          c.size() > 2 && c.front() == '[' && c.find_first_not_of("0123456789", 1) == c.size() - 1;
      path += index ? c : "." + c.substr(1, c.size() - 2);
    }
    out.push_back(path + ": " + error.description);
  }
  return out;
}

}  // namespace testmap::mcp
