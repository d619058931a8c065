#include "routing/lid_assign.h"

#include <algorithm>
#include <string>
#include <vector>

namespace smd {

namespace {

struct Claim {
  NodeIndex node;
  PortNum port;
  Guid guid;
  std::uint8_t lmc;
};

// Ports that need LIDs: switch port 0, and every CA/router port that is cabled (or is the SM's own port).
std::vector<Claim> ports_needing_lids(const Topology& topo, unsigned lmc) {
  std::vector<Claim> out;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (node.is_switch()) {
      out.push_back(Claim{n, 0, node.ports[0].guid ? node.ports[0].guid : node.guid, 0});
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      const bool sm_port = n == topo.sm_node && p == topo.sm_port;
      if (port.connected() || sm_port) out.push_back(Claim{n, p, port.guid, static_cast<std::uint8_t>(lmc)});
    }
  }
  return out;
}

bool range_free(const LidMap& map, unsigned base, unsigned count) {
  for (unsigned l = base; l < base + count; ++l) {
    if (map.owner(static_cast<Lid>(l))) return false;
  }
  return true;
}

bool fits(unsigned base, unsigned count, unsigned max_lid) {
  return base != 0 && (base & (count - 1)) == 0 && base + count - 1 <= max_lid;
}

}  // namespace

Result<LidMap> assign_lids(const Topology& topo, const Guid2Lid& remembered, const LidAssignOptions& options) {
  if (options.lmc > 7) return make_error(ErrorCode::kInvalidInput, "LMC must be 0..7");
  unsigned max_lid = kMaxUnicastLid;
  for (NodeIndex s : topo.switches()) {
    const unsigned cap = topo.node(s).lft_cap;
    if (cap == 0) continue;  // a switch without a linear FDB cannot constrain us; verification flags it
    max_lid = std::min(max_lid, cap - 1);
  }

  const std::vector<Claim> claims = ports_needing_lids(topo, options.lmc);
  std::vector<bool> placed(claims.size(), false);
  LidMap map;

  // Pass 1 and 2: keep what the operator's guid2lid remembers, then what the port already holds.
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < claims.size(); ++i) {
      if (placed[i]) continue;
      const Claim& c = claims[i];
      const unsigned count = 1u << c.lmc;
      unsigned base = 0;
      if (pass == 0) {
        auto it = remembered.find(c.guid);
        if (it == remembered.end() || it->second.max - it->second.min + 1u != count) continue;
        base = it->second.min;
      } else {
        if (!options.keep_port_lids) continue;
        const Port& port = topo.node(c.node).ports[c.port];
        if (port.lid == 0 || port.lmc != c.lmc) continue;
        base = port.lid;
      }
      if (!fits(base, count, max_lid) || !range_free(map, base, count)) continue;
      if (map.assign(c.node, c.port, static_cast<Lid>(base), c.lmc).ok()) placed[i] = true;
    }
  }

  // Pass 3: lowest free aligned range for the rest, in topology order (stable across sweeps).
  unsigned cursor[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  for (std::size_t i = 0; i < claims.size(); ++i) {
    if (placed[i]) continue;
    const Claim& c = claims[i];
    const unsigned count = 1u << c.lmc;
    unsigned base = std::max(cursor[c.lmc], count);
    base = (base + count - 1) & ~(count - 1);
    while (base + count - 1 <= max_lid && !range_free(map, base, count)) base += count;
    if (base + count - 1 > max_lid) {
      return make_error(ErrorCode::kInvalidInput, "LID space exhausted: " + std::to_string(claims.size()) +
                                                      " ports with LMC " + std::to_string(options.lmc) +
                                                      " do not fit below LID " + std::to_string(max_lid) +
                                                      " (smallest LinearFDBCap of the fabric's switches)");
    }
    if (auto st = map.assign(c.node, c.port, static_cast<Lid>(base), c.lmc); !st.ok()) return st.error();
    cursor[c.lmc] = base + count;
  }
  return map;
}

Guid2Lid to_guid2lid(const Topology& topo, const LidMap& lids) {
  Guid2Lid out;
  for (const LidMap::Entry& e : lids.entries()) {
    const Node& node = topo.node(e.owner.node);
    Guid guid = node.ports[e.owner.port].guid;
    if (guid == 0) guid = node.guid;
    out[guid] = LidRange{e.base, static_cast<Lid>(e.base + (1u << e.lmc) - 1)};
  }
  return out;
}

}  // namespace smd
