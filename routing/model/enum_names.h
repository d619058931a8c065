// How an enum value reads in text: one lookup for the small name tables of the fabric model, the engines'
// reports and the dump/control outputs, and one switch over NodeType that every output vocabulary
// (IBA words, OpenSM's dump words, smctl's lower-case words) goes through.
#pragma once

#include <cstddef>
#include <utility>

#include "routing/model/topology.h"

namespace smd {

/// The text `names` gives `value`, or `unknown` when the table has no row for it (a value read off the
/// wire that the enum does not name). Linear: the tables have a handful of rows.
template <class E, std::size_t N>
constexpr const char* enum_name(E value, const std::pair<E, const char*> (&names)[N], const char* unknown = "?") {
  for (const auto& [key, text] : names) {
    if (key == value) return text;
  }
  return unknown;
}

/// One output format's words for the NodeInfo:NodeType values (IBA 14.2.5.3).
struct NodeTypeWords {
  const char* ca;
  const char* switch_node;
  const char* router;
  const char* unknown;  ///< a value outside the IBA's three
};

/// `type` in the vocabulary `words`. A switch, so the compiler names every format when a type is added.
constexpr const char* node_type_word(NodeType type, const NodeTypeWords& words) {
  switch (type) {
    case NodeType::kCa: return words.ca;
    case NodeType::kSwitch: return words.switch_node;
    case NodeType::kRouter: return words.router;
  }
  return words.unknown;
}

}  // namespace smd
