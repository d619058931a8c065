#include "routing/partitions/partition_plan.h"

#include <algorithm>
#include <optional>

namespace smd {

namespace {

constexpr PKey kBaseMask = 0x7fff;

PKey base_of(PKey k) { return static_cast<PKey>(k & kBaseMask); }
bool is_full(PKey k) { return (k & kPKeyFullBit) != 0; }

std::string port_name(const Node& node, PortNum port) { return describe_node(node) + " port " + std::to_string(port); }

// One endport of the topology (CA port, switch port 0) and what it wants, partition by partition.
struct Endport {
  NodeIndex node = kNoNode;
  PortNum port = 0;
  Guid port_guid = 0;
};

std::vector<Endport> endports_of(const Topology& topo) {
  std::vector<Endport> out;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (node.is_switch()) {
      out.push_back({n, 0, node.ports[0].guid != 0 ? node.ports[0].guid : node.guid});
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (node.ports[p].guid != 0) out.push_back({n, p, node.ports[p].guid});
    }
  }
  return out;
}

bool selects(const PartitionMember& m, const Topology& topo, const Endport& e, NodeIndex self_node, PortNum self_port) {
  const Node& node = topo.node(e.node);
  switch (m.selector) {
    case MemberSelector::kPortGuid: return e.port_guid == m.guid || (node.is_switch() && node.guid == m.guid);
    case MemberSelector::kNodeDescription: return node.description == m.node_description;
    case MemberSelector::kAll: return true;
    case MemberSelector::kAllCas: return node.type == NodeType::kCa;
    case MemberSelector::kAllSwitches: return node.is_switch();
    case MemberSelector::kAllRouters: return node.type == NodeType::kRouter;
    case MemberSelector::kSelf: return e.node == self_node && e.port == self_port;
  }
  return false;
}

// What one endport wants: entries in partition order, and the one for index 0 (if any).
struct Wanted {
  std::vector<PKey> entries;
  std::optional<PKey> index0;
};

Wanted wanted_for(const Topology& topo, const PartitionsSpec& spec, const Endport& e, NodeIndex self_node,
                  PortNum self_port) {
  Wanted w;
  std::optional<PKey> default_entry;
  for (const PartitionSpec& part : spec.partitions) {
    const PKey base = base_of(part.pkey);
    if (base == 0) continue;
    bool full = false, limited = false;
    for (const PartitionMember& m : part.members) {
      if (!selects(m, topo, e, self_node, self_port)) continue;
      switch (m.membership.value_or(part.default_membership)) {
        case Membership::kFull: full = true; break;
        case Membership::kLimited: limited = true; break;
        case Membership::kBoth:
          full = true;
          limited = limited || spec.allow_both_pkeys;
          break;
      }
    }
    if (!spec.allow_both_pkeys && full) limited = false;
    std::vector<PKey> add;
    if (full) add.push_back(static_cast<PKey>(base | kPKeyFullBit));
    if (limited) add.push_back(base);
    for (PKey k : add) {
      if (std::find(w.entries.begin(), w.entries.end(), k) != w.entries.end()) continue;  // a repeated P_Key
      w.entries.push_back(k);
    }
    if (add.empty()) continue;
    if (part.index0 && !w.index0) w.index0 = add.front();
    if (base == kDefaultPKeyBase && !default_entry) default_entry = add.front();
  }
  if (!w.index0) w.index0 = default_entry;
  return w;
}

// Lay `entries` out in `cap` slots, keeping the indexes of `prev`; `pin0` goes at index 0. `entries` fit.
std::vector<PKey> lay_out(const std::vector<PKey>& entries, std::optional<PKey> pin0, std::size_t cap,
                          const std::vector<PKey>* prev) {
  std::vector<PKey> table(cap, 0);
  std::vector<bool> placed(entries.size(), false);
  auto place = [&](std::size_t i, std::size_t slot) {
    table[slot] = entries[i];
    placed[i] = true;
  };
  if (pin0 && cap > 0) {
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (entries[i] == *pin0) {
        place(i, 0);
        break;
      }
    }
  }
  if (prev != nullptr) {
    // The same value where it was, then the same base (a membership change keeps its index).
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (placed[i]) continue;
        for (std::size_t s = 0; s < std::min(cap, prev->size()); ++s) {
          const PKey old = (*prev)[s];
          if (old == 0 || table[s] != 0) continue;
          const bool same = pass == 0 ? old == entries[i] : base_of(old) == base_of(entries[i]);
          if (!same) continue;
          if (pass == 1 && std::find(entries.begin(), entries.end(), old) != entries.end()) continue;
          place(i, s);
          break;
        }
      }
    }
  }
  std::size_t free_slot = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (placed[i]) continue;
    // Index 0 is kept for the pinned entry; without one it is as free as any other.
    while (free_slot < cap && (table[free_slot] != 0 || (free_slot == 0 && pin0))) ++free_slot;
    if (free_slot == cap) break;  // cannot happen: the caller cut the set to the cap
    place(i, free_slot);
  }
  return table;
}

const std::vector<PKey>* previous_table(const PartitionPlan* previous, const PortKey& key) {
  if (previous == nullptr) return nullptr;
  auto it = previous->ports.find(key);
  return it == previous->ports.end() ? nullptr : &it->second.table;
}

}  // namespace

const std::vector<PKey>& PartitionPlan::pkeys_of(Guid port_guid) const {
  static const std::vector<PKey> kNone;
  auto it = members.find(port_guid);
  return it == members.end() ? kNone : it->second;
}

const PortPartitions* PartitionPlan::port(Guid node_guid, PortNum p) const {
  auto it = ports.find(PortKey{node_guid, p});
  return it == ports.end() ? nullptr : &it->second;
}

const char* to_string(PartitionProblemCode code) {
  switch (code) {
    case PartitionProblemCode::kPartitionCap: return "partition-cap";
    case PartitionProblemCode::kEnforcementCap: return "enforcement-cap";
  }
  return "unknown";
}

namespace {

std::size_t cap_of(const std::vector<std::uint16_t>& caps, NodeIndex n) { return n < caps.size() ? caps[n] : 0; }

// The entries an endport keeps when it wants more than `cap`: the index-0 entry first, then partition
// order, so IPoIB's index-0 P_Key survives any cut; the kept ones stay in partition order.
std::vector<PKey> cut_to_cap(const Wanted& w, std::size_t cap) {
  std::vector<PKey> order;
  if (w.index0) order.push_back(*w.index0);
  for (PKey k : w.entries) {
    if (!w.index0 || k != *w.index0) order.push_back(k);
  }
  order.resize(cap);
  std::vector<PKey> kept;
  for (PKey k : w.entries) {
    if (std::find(order.begin(), order.end(), k) != order.end()) kept.push_back(k);
  }
  return kept;
}

// Every endport's membership and table (cut to its PartitionCap, a problem when cut). Returns the
// entries each CA port holds after the cut, by port GUID: what its switch port enforces.
std::unordered_map<Guid, std::vector<PKey>> plan_endports(const Topology& topo, const PartitionsSpec& spec,
                                                          NodeIndex self_node, PortNum self_port,
                                                          const PartitionCaps& caps, const PartitionPlan* previous,
                                                          PartitionPlan& plan) {
  std::unordered_map<Guid, std::vector<PKey>> held;
  for (const Endport& e : endports_of(topo)) {
    const Node& node = topo.node(e.node);
    Wanted w = wanted_for(topo, spec, e, self_node, self_port);
    plan.members[e.port_guid] = w.entries;
    const std::size_t cap = cap_of(caps.partition_cap, e.node);
    if (cap == 0) continue;  // no P_Key table on this node
    std::vector<PKey> kept = w.entries;
    if (kept.size() > cap) {
      kept = cut_to_cap(w, cap);
      plan.problems.push_back({node.guid, e.port,
                               port_name(node, e.port) + ": " + std::to_string(w.entries.size()) +
                                   " P_Keys exceed PartitionCap " + std::to_string(cap) + "; the last " +
                                   std::to_string(w.entries.size() - cap) + " in partition order left out",
                               PartitionProblemCode::kPartitionCap});
    }
    const PortKey key{node.guid, e.port};
    PortPartitions pp;
    pp.node = e.node;
    pp.port = e.port;
    pp.port_guid = e.port_guid;
    pp.table = lay_out(kept, w.index0, cap, previous_table(previous, key));
    plan.ports.emplace(key, std::move(pp));
    held[e.port_guid] = std::move(kept);
  }
  return held;
}

// What a switch port facing a CA enforces: the CA port's entries, a limited one left out when its full
// twin is there (the full entry admits both memberships' packets).
std::vector<PKey> enforcement_copy(const std::vector<PKey>& held) {
  std::vector<PKey> copy;
  for (PKey k : held) {
    const bool twin =
        !is_full(k) && std::find(held.begin(), held.end(), static_cast<PKey>(k | kPKeyFullBit)) != held.end();
    if (!twin) copy.push_back(k);
  }
  return copy;
}

// One switch external port: enforcement towards a CA whose port has a table, none between switches or
// when the spec turns it off; off too (a problem) when the copy does not fit PartitionEnforcementCap.
PortPartitions plan_switch_port(const Topology& topo, const PartitionsSpec& spec, NodeIndex s, PortNum p,
                                const PartitionCaps& caps, const PartitionPlan* previous,
                                const std::unordered_map<Guid, std::vector<PKey>>& held, PartitionPlan& plan) {
  const Node& sw = topo.node(s);
  const Port& port = sw.ports[p];
  const Node& peer = topo.node(port.peer);
  PortPartitions pp;
  pp.node = s;
  pp.port = p;
  pp.port_guid = sw.ports[0].guid != 0 ? sw.ports[0].guid : sw.guid;
  pp.endport = false;
  pp.has_table = false;
  if (peer.is_switch() || spec.enforcement == PartitionEnforcement::kOff) return pp;
  auto it = held.find(peer.ports[port.peer_port].guid);
  if (it == held.end()) return pp;  // the CA port has no table: nothing to enforce
  const std::vector<PKey> copy = enforcement_copy(it->second);
  const std::size_t cap = cap_of(caps.enforcement_cap, s);
  if (cap == 0) return pp;  // no enforcement table on this switch: not a problem
  if (copy.size() > cap) {
    plan.problems.push_back({sw.guid, p,
                             port_name(sw, p) + ": the " + std::to_string(copy.size()) + " P_Keys of " +
                                 port_name(peer, port.peer_port) + " exceed PartitionEnforcementCap " +
                                 std::to_string(cap) + "; partition enforcement off",
                             PartitionProblemCode::kEnforcementCap});
    return pp;
  }
  pp.has_table = true;
  pp.table = lay_out(copy, std::nullopt, cap, previous_table(previous, PortKey{sw.guid, p}));
  pp.enforce_in = spec.enforcement == PartitionEnforcement::kBoth || spec.enforcement == PartitionEnforcement::kIn;
  pp.enforce_out = spec.enforcement == PartitionEnforcement::kBoth || spec.enforcement == PartitionEnforcement::kOut;
  return pp;
}

}  // namespace

PartitionPlan plan_partitions(const Topology& topo, const PartitionsSpec& spec, NodeIndex self_node, PortNum self_port,
                              const PartitionCaps& caps, const PartitionPlan* previous) {
  PartitionPlan plan;
  const auto held = plan_endports(topo, spec, self_node, self_port, caps, previous, plan);
  for (NodeIndex s : topo.switches()) {
    const Node& sw = topo.node(s);
    for (PortNum p = 1; p <= sw.num_ports; ++p) {
      if (!sw.ports[p].connected()) continue;
      plan.ports.emplace(PortKey{sw.guid, p}, plan_switch_port(topo, spec, s, p, caps, previous, held, plan));
    }
  }
  return plan;
}

bool pkeys_match(PKey a, PKey b) {
  if (base_of(a) == 0 || base_of(b) == 0) return false;
  return base_of(a) == base_of(b) && (is_full(a) || is_full(b));
}

bool pkeys_share(const std::vector<PKey>& a, const std::vector<PKey>& b) {
  for (PKey x : a) {
    for (PKey y : b) {
      if (pkeys_match(x, y)) return true;
    }
  }
  return false;
}

PartitionMembership membership_of(const PartitionPlan& plan, PKeyBase base) {
  PartitionMembership m;
  for (const auto& [guid, pkeys] : plan.members) {
    for (PKey k : pkeys) {
      if ((k & 0x7fff) != base) continue;
      ++((k & 0x8000) != 0 ? m.full : m.limited);
      break;
    }
  }
  return m;
}

std::optional<std::string> default_membership_change(const PartitionPlan* before, const PartitionPlan& after) {
  if (before == nullptr) return std::nullopt;
  const PartitionMembership was = membership_of(*before, kDefaultPKeyBase);
  const PartitionMembership now = membership_of(after, kDefaultPKeyBase);
  if (was == now) return std::nullopt;
  return "Default partition (0x7fff): full members " + std::to_string(was.full) + " -> " + std::to_string(now.full) +
         ", limited " + std::to_string(was.limited) + " -> " + std::to_string(now.limited);
}

}  // namespace smd
