#include "smd/sa/state_file_origin.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace smd::sa {

std::string stamp_writer(const std::string& json, Guid writer) {
  nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return json;
  char b[24];
  std::snprintf(b, sizeof b, "0x%016llx", static_cast<unsigned long long>(writer));
  doc["written_by"] = b;
  return doc.dump(1) + "\n";
}

std::optional<Guid> file_writer(const std::string& json) {
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  const auto f = doc.find("written_by");
  if (f == doc.end() || !f->is_string()) return std::nullopt;
  const std::string& text = f->get_ref<const std::string&>();
  if (text.size() != 18 || text.compare(0, 2, "0x") != 0) return std::nullopt;
  Guid v = 0;
  for (std::size_t i = 2; i < text.size(); ++i) {
    const char c = text[i];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return std::nullopt;
    v = v << 4 | static_cast<Guid>(d);
  }
  return v;
}

bool restore_state_file(std::optional<Guid> writer, Guid self, bool other_master_seen) {
  if (!writer || *writer != self) return true;
  return !other_master_seen;
}

}  // namespace smd::sa
