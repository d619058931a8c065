#include "config/policy_overrides.h"

#include <algorithm>

#include "config/yaml_fields.h"
#include "routing/base/safe_text.h"
#include "routing/chain/registry.h"

namespace smd {

namespace {

Error invalid_option(std::string_view option, std::string_view text, const std::string& why) {
  return make_error(ErrorCode::kInvalidInput,
                    std::string(option) + " '" + printable_text(std::string(text)) + "': " + why);
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

Result<unsigned> parse_priority_override(std::string_view text) {
  Result<std::uint64_t> value = parse_unsigned(text);
  if (!value.ok()) return invalid_option("--priority", text, value.error().message);
  if (*value > 15) return invalid_option("--priority", text, "an SM priority is 0..15");
  return static_cast<unsigned>(*value);
}

Result<Guid> parse_guid_override(std::string_view text) {
  Result<std::uint64_t> value = parse_unsigned(text);
  if (!value.ok()) return invalid_option("--guid", text, value.error().message);
  if (*value == 0) return invalid_option("--guid", text, "GUID 0 names no port");
  return Guid{*value};
}

Result<std::vector<std::string>> parse_engine_list_override(std::string_view text) {
  const std::vector<std::string> known = engine_names();
  std::vector<std::string> chain;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = std::min(text.find(',', begin), text.size());
    const std::string name(text.substr(begin, comma - begin));
    const std::string where = "engine " + std::to_string(chain.size() + 1);
    if (name.empty()) return invalid_option("--routing-engine", text, where + " is empty; known: " + joined(known));
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return invalid_option("--routing-engine", text,
                            "unknown engine '" + printable_text(name) + "'; known: " + joined(known));
    }
    if (std::find(chain.begin(), chain.end(), name) != chain.end()) {
      return invalid_option("--routing-engine", text, "'" + name + "' is listed twice");
    }
    chain.push_back(name);
    if (comma == text.size()) break;
    begin = comma + 1;
  }
  return chain;
}

void apply_overrides(Policy& policy, const PolicyOverrides& overrides) {
  policy.overrides = overrides;
  if (overrides.priority) policy.sm.priority = *overrides.priority;
  if (overrides.port_guid) {
    policy.sm.port_guid = *overrides.port_guid;
    policy.sm.ca.clear();
    policy.sm.port = 0;
  }
  if (overrides.engines) policy.routing.engines = *overrides.engines;
  if (overrides.log_level) policy.log.level = *overrides.log_level;
}

std::vector<std::pair<std::string, std::string>> overridden_keys(const PolicyOverrides& overrides) {
  std::vector<std::pair<std::string, std::string>> keys;
  if (overrides.priority) keys.emplace_back("sm.priority", "--priority");
  if (overrides.port_guid) {
    keys.emplace_back("sm.port_guid", "--guid");
    keys.emplace_back("sm.ca", "--guid");
    keys.emplace_back("sm.port", "--guid");
  }
  if (overrides.engines) keys.emplace_back("routing.engines", "--routing-engine");
  if (overrides.log_level) keys.emplace_back("log.level", "--log-level");
  return keys;
}

}  // namespace smd
