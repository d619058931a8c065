#include "smd/dump/opensm_order.h"

#include <string>

namespace smd::dump {

namespace {

// OpenSM's two spellings of each node type, kept side by side so every dump names a type the same way.
struct OpenSmTypeWords {
  NodeType type;
  const char* name;  // ib_get_node_type_str (opensm-lfts, opensm-sl2vl)
  const char* tag;   // subnet.lst
};

constexpr OpenSmTypeWords kTypeWords[] = {
    {NodeType::kCa, "Channel Adapter", "CA"},
    {NodeType::kSwitch, "Switch", "SW"},
    {NodeType::kRouter, "Router", "Rt"},
};

const OpenSmTypeWords* words_of(NodeType type) {
  for (const OpenSmTypeWords& w : kTypeWords) {
    if (w.type == type) return &w;
  }
  return nullptr;
}

}  // namespace

const char* opensm_node_type(NodeType type) {
  const OpenSmTypeWords* w = words_of(type);
  return w != nullptr ? w->name : "Unknown";
}

const char* opensm_node_tag(NodeType type) {
  const OpenSmTypeWords* w = words_of(type);
  return w != nullptr ? w->tag : "**";
}

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
