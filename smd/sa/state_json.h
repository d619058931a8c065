// The envelope every SA state file shares (the services file, the groups file): a JSON object with
// "version": 1 and one array of entries. One reader, so both files refuse a damaged or foreign document
// with the same words.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "routing/base/status.h"

namespace smd::sa {

/// `text` parsed, when it is an object with "version" 1 and an array under `list_key`. Errors
/// (kInvalidInput): "not a JSON object", "\"version\" is not 1", "no \"<list_key>\" array".
inline Result<nlohmann::json> parse_state_document(const std::string& text, const std::string& list_key) {
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return make_error(ErrorCode::kInvalidInput, "not a JSON object");
  if (doc.value("version", 0) != 1) return make_error(ErrorCode::kInvalidInput, "\"version\" is not 1");
  const auto it = doc.find(list_key);
  if (it == doc.end() || !it->is_array())
    return make_error(ErrorCode::kInvalidInput, "no \"" + list_key + "\" array");
  return doc;
}

}  // namespace smd::sa
