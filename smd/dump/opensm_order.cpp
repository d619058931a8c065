#include "smd/dump/opensm_order.h"

#include <string>

#include "routing/model/enum_names.h"

namespace smd::dump {

const char* opensm_node_type(NodeType type) {
  return node_type_word(type, {"Channel Adapter", "Switch", "Router", "Unknown"});
}

const char* opensm_node_tag(NodeType type) { return node_type_word(type, {"CA", "SW", "Rt", "**"}); }

std::string opensm_print_desc(const std::string& description) {
  std::string out = description.substr(0, 63);
  if (const auto nul = out.find('\0'); nul != std::string::npos) out.resize(nul);
  for (char& c : out) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b > 0x7e) c = ' ';
  }
  return out;
}

}  // namespace smd::dump
