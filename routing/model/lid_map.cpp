#include "routing/model/lid_map.h"

#include <string>

namespace smd {

Status LidMap::assign(NodeIndex node, PortNum port, Lid base, std::uint8_t lmc) {
  if (lmc > 7) return make_error(ErrorCode::kInvalidInput, "LMC " + std::to_string(lmc) + " exceeds 7");
  const unsigned count = 1u << lmc;
  if (base == 0 || (base & (count - 1)) != 0) {
    return make_error(ErrorCode::kInvalidInput,
                      "LID " + std::to_string(base) + " is not aligned to LMC " + std::to_string(lmc));
  }
  if (static_cast<unsigned>(base) + count - 1 > kMaxUnicastLid) {
    return make_error(ErrorCode::kInvalidInput, "LID range at " + std::to_string(base) + " leaves unicast space");
  }
  const unsigned end = base + count;
  if (owners_.size() < end) owners_.resize(end);
  for (unsigned l = base; l < end; ++l) {
    const Slot& s = owners_[l];
    if (s.node != kNoNode && !(s.node == node && s.port == port)) {
      return make_error(ErrorCode::kInvalidInput, "LID " + std::to_string(l) + " already in use");
    }
  }
  if (node >= base_by_node_.size()) base_by_node_.resize(node + 1);
  auto& ports = base_by_node_[node];
  if (port >= ports.size()) ports.resize(port + 1, 0);
  if (Lid old = ports[port]; old != 0) {
    const unsigned old_end = old + (1u << owners_[old].lmc);
    for (unsigned l = old; l < old_end && l < owners_.size(); ++l) owners_[l] = Slot{};
  }
  for (unsigned l = base; l < end; ++l) owners_[l] = Slot{node, port, l == base, lmc};
  ports[port] = base;
  while (!owners_.empty() && owners_.back().node == kNoNode) owners_.pop_back();
  return Ok{};
}

Lid LidMap::base_lid(NodeIndex node, PortNum port) const {
  if (node >= base_by_node_.size() || port >= base_by_node_[node].size()) return 0;
  return base_by_node_[node][port];
}

std::uint8_t LidMap::lmc_of(NodeIndex node, PortNum port) const {
  const Lid base = base_lid(node, port);
  return base == 0 ? 0 : owners_[base].lmc;
}

std::optional<LidOwner> LidMap::owner(Lid lid) const {
  if (lid >= owners_.size() || owners_[lid].node == kNoNode) return std::nullopt;
  return LidOwner{owners_[lid].node, owners_[lid].port};
}

std::vector<LidMap::Entry> LidMap::entries() const {
  std::vector<Entry> out;
  for (std::size_t l = 1; l < owners_.size(); ++l) {
    const Slot& s = owners_[l];
    if (s.node != kNoNode && s.is_base) out.push_back(Entry{static_cast<Lid>(l), s.lmc, LidOwner{s.node, s.port}});
  }
  return out;
}

}  // namespace smd
