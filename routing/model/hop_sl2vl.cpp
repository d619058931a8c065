#include "routing/model/hop_sl2vl.h"

#include <algorithm>
#include <utility>

namespace smd {
namespace {

constexpr HopVlMap hop_identity_map() {
  HopVlMap m{};
  for (std::uint8_t sl = 0; sl < m.size(); ++sl) m[sl] = sl;
  return m;
}

constexpr std::uint8_t kHopDropVl = 15;

}  // namespace

void HopSl2Vl::set_classes(NodeIndex node, std::vector<std::uint8_t> in_class, std::uint8_t classes) {
  if (node >= nodes_.size() || classes == 0) return;
  NodeTables& t = nodes_[node];
  t.classes = classes;
  t.in_class = std::move(in_class);
  t.maps.assign(static_cast<std::size_t>(classes) * t.in_class.size(), hop_identity_map());
}

void HopSl2Vl::set(NodeIndex node, std::uint8_t in_class, PortNum out, const HopVlMap& map) {
  if (!has(node)) return;
  NodeTables& t = nodes_[node];
  if (in_class >= t.classes || out >= t.in_class.size()) return;
  t.maps[static_cast<std::size_t>(in_class) * t.in_class.size() + out] = map;
}

HopVlMap HopSl2Vl::table(NodeIndex node, PortNum in, PortNum out) const {
  if (!has(node)) return hop_identity_map();
  const NodeTables& t = nodes_[node];
  if (in >= t.in_class.size() || out >= t.in_class.size()) return hop_identity_map();
  const std::uint8_t cls = std::min<std::uint8_t>(t.in_class[in], static_cast<std::uint8_t>(t.classes - 1));
  return t.maps[static_cast<std::size_t>(cls) * t.in_class.size() + out];
}

std::uint8_t HopSl2Vl::vls_used() const {
  std::uint8_t top = 0;
  for (const NodeTables& t : nodes_) {
    for (const HopVlMap& m : t.maps) {
      for (std::uint8_t vl : m) {
        if (vl != kHopDropVl) top = std::max(top, vl);
      }
    }
  }
  return static_cast<std::uint8_t>(top + 1);
}

HopSl2Vl HopSl2Vl::renumbered(const std::vector<NodeIndex>& new_of, std::size_t size) const {
  HopSl2Vl out(size);
  for (NodeIndex n = 0; n < nodes_.size() && n < new_of.size(); ++n) {
    if (new_of[n] < size) out.nodes_[new_of[n]] = nodes_[n];
  }
  return out;
}

}  // namespace smd
