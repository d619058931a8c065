#include "routing/mcast/mcast_tree.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <tuple>

#include "routing/mcast/mcast_cables.h"
#include "routing/mcast/mcast_verify.h"

namespace smd {

namespace {

constexpr unsigned kRootCandidates = 8;

// splitmix64: a fixed, well-mixed tie-break so equal choices are spread by MLID, yet reproducible.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

// A member port as the tree sees it: the switch it hangs off and that switch's port towards it.
struct McastAttach {
  McastMember member;
  SwitchIndex sw = kNoSwitch;
  PortNum port = 0;
};

// One candidate tree: parent link per switch on it, in the order the switches joined.
struct McastCandidate {
  SwitchIndex root = kNoSwitch;
  std::vector<SwitchIndex> order;   // switches on the tree, root first
  std::vector<SwitchIndex> parent;  // [switch] parent on the tree (kNoSwitch: root or off the tree)
  std::vector<PortNum> up_port;     // [switch] its port towards the parent
  std::uint32_t busiest = 0;        // highest load of a tree link, this group included
  std::uint64_t total = 0;          // sum of the loads of its links, this group included
};

McastTreeBuilder::McastTreeBuilder(const Topology& topo, unsigned threads)
    : topo_(topo),
      graph_(SwitchGraph::build(topo)),
      hops_(HopTable::build(graph_, threads)),
      component_(switch_components(graph_)) {}

std::uint32_t McastTreeBuilder::cable(SwitchIndex s, PortNum p) const { return mcast_cable(graph_, s, p); }

std::optional<McastCandidate> McastTreeBuilder::reuse(const McastTree& previous, std::uint32_t comp) const {
  const auto r = topo_.find(previous.root);
  if (!r) return std::nullopt;
  const SwitchIndex root = graph_.index_of(*r);
  if (root == kNoSwitch || component_[root] != comp) return std::nullopt;
  const std::size_t S = graph_.num_switches();
  std::vector<const McastPortMask*> mask(S, nullptr);
  for (const auto& [guid, m] : previous.switches) {
    const auto n = topo_.find(guid);
    if (!n) return std::nullopt;
    const SwitchIndex s = graph_.index_of(*n);
    if (s == kNoSwitch) return std::nullopt;
    mask[s] = &m;
  }
  if (mask[root] == nullptr) return std::nullopt;
  McastCandidate c;
  c.root = root;
  c.parent.assign(S, kNoSwitch);
  c.up_port.assign(S, 0);
  std::vector<char> on(S, 0);
  on[root] = 1;
  c.order.push_back(root);
  for (std::size_t i = 0; i < c.order.size(); ++i) {
    const SwitchIndex cur = c.order[i];
    for (const SwitchGraph::Link& l : graph_.links(cur)) {
      if (!mask[cur]->test(l.port) || on[l.peer]) continue;
      // Only a shortest-path tree from its root can be grown by the walk towards the root below.
      if (mask[l.peer] == nullptr || hops_.hops(root, l.peer) != hops_.hops(root, cur) + 1u) return std::nullopt;
      on[l.peer] = 1;
      c.parent[l.peer] = cur;
      c.up_port[l.peer] = graph_.peer_port(cur, l.port);
      c.order.push_back(l.peer);
    }
  }
  if (c.order.size() != previous.switches.size()) return std::nullopt;  // not one connected tree
  return c;
}

Result<std::vector<McastAttach>> McastTreeBuilder::attach_members(const McastGroupPorts& group) const {
  const std::string where = "MLID " + format_mlid(group.mlid);
  std::vector<McastAttach> attached;
  std::set<std::pair<NodeIndex, PortNum>> seen;
  for (const auto& [n, p] : group.members) {
    if (n >= topo_.size()) {
      return make_error(ErrorCode::kInvalidInput,
                        where + ": member node " + std::to_string(n) + " is not in the fabric");
    }
    const Node& node = topo_.node(n);
    if (p > node.num_ports || (node.is_switch() && p != 0) || (!node.is_switch() && p == 0)) {
      return make_error(ErrorCode::kInvalidInput, where + ": member " + describe_node(node) + " port " +
                                                      std::to_string(p) + " is not an endport");
    }
    if (!seen.insert({n, p}).second) continue;
    McastAttach a;
    a.member = {node.guid, p};
    if (node.is_switch()) {
      a.sw = graph_.index_of(n);
    } else {
      const LidTarget t = port_target(topo_, graph_, n, p);
      a.sw = t.sw;
      a.port = t.port;
    }
    attached.push_back(a);
  }
  return attached;
}

namespace {

// The component with the most member ports (lowest id on a tie) gets the tree; max() when no member
// port reaches a switch.
std::uint32_t tree_component(const std::vector<McastAttach>& attached, const std::vector<std::uint32_t>& component) {
  std::vector<std::uint32_t> per_component;
  for (const McastAttach& a : attached) {
    if (a.sw == kNoSwitch) continue;
    const std::uint32_t c = component[a.sw];
    if (per_component.size() <= c) per_component.resize(c + 1, 0);
    ++per_component[c];
  }
  std::uint32_t comp = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t best = 0;
  for (std::uint32_t c = 0; c < per_component.size(); ++c) {
    if (per_component[c] > best) best = per_component[c], comp = c;
  }
  return comp;
}

}  // namespace

std::vector<SwitchIndex> McastTreeBuilder::root_candidates(const std::vector<SwitchIndex>& member_sw,
                                                           std::uint32_t comp, Lid mlid,
                                                           const std::vector<std::uint32_t>& root_load) const {
  // Near-central roots: every switch of the component whose farthest member switch is nearest.
  unsigned least = HopTable::kUnreachable + 1;
  std::vector<std::pair<unsigned, SwitchIndex>> ecc;
  for (SwitchIndex r = 0; r < graph_.num_switches(); ++r) {
    if (component_[r] != comp) continue;
    unsigned far = 0;
    for (SwitchIndex m : member_sw) far = std::max<unsigned>(far, hops_.hops(r, m));
    ecc.emplace_back(far, r);
    least = std::min(least, far);
  }
  std::vector<SwitchIndex> roots;
  for (const auto& [far, r] : ecc) {
    if (far == least) roots.push_back(r);
  }
  // Fewest trees rooted there first; the MLID-seeded mix spreads the groups over equally loaded roots.
  std::sort(roots.begin(), roots.end(), [&](SwitchIndex a, SwitchIndex b) {
    return std::make_tuple(root_load[a], mix(mlid * 0x10001ULL + a)) <
           std::make_tuple(root_load[b], mix(mlid * 0x10001ULL + b));
  });
  if (roots.size() > kRootCandidates) roots.resize(kRootCandidates);
  return roots;
}

McastTreeBuilder::Parent McastTreeBuilder::pick_parent(SwitchIndex cur, SwitchIndex root, const std::vector<char>& on,
                                                       Lid mlid, const std::vector<std::uint32_t>& link_load) const {
  const unsigned d = hops_.hops(root, cur);
  Parent pick;
  bool pick_on = false;
  std::uint64_t pick_key = 0;
  for (const SwitchGraph::Link& l : graph_.links(cur)) {
    if (hops_.hops(root, l.peer) + 1u != d) continue;
    const bool is_on = on[l.peer] != 0;
    const std::uint32_t load = link_load[cable(cur, l.port)];
    const std::uint64_t key = mix((std::uint64_t{mlid} << 32) ^ cable(cur, l.port));
    const bool better = pick.sw == kNoSwitch || (is_on && !pick_on) ||
                        (is_on == pick_on && std::make_pair(load, key) < std::make_pair(pick.load, pick_key));
    if (better) pick = Parent{l.peer, l.port, load}, pick_on = is_on, pick_key = key;
  }
  return pick;
}

McastCandidate McastTreeBuilder::grow(SwitchIndex root, const std::vector<SwitchIndex>& member_sw,
                                      const McastCandidate* kept, Lid mlid,
                                      const std::vector<std::uint32_t>& link_load) const {
  const std::size_t S = graph_.num_switches();
  McastCandidate c;
  std::vector<char> on(S, 0);
  if (kept && kept->root == root) {
    c = *kept;
    for (SwitchIndex s : c.order) on[s] = 1;
  } else {
    c.root = root;
    c.parent.assign(S, kNoSwitch);
    c.up_port.assign(S, 0);
    on[root] = 1;
    c.order.push_back(root);
  }
  std::vector<SwitchIndex> by_distance = member_sw;
  std::sort(by_distance.begin(), by_distance.end(), [&](SwitchIndex a, SwitchIndex b) {
    return std::make_pair(hops_.hops(root, a), a) < std::make_pair(hops_.hops(root, b), b);
  });
  for (SwitchIndex m : by_distance) {
    for (SwitchIndex cur = m; !on[cur];) {
      // A parent exists: cur is in the root's component at distance d >= 1, so a neighbour is at d - 1.
      const Parent pick = pick_parent(cur, root, on, mlid, link_load);
      c.parent[cur] = pick.sw;
      c.up_port[cur] = pick.port;
      on[cur] = 1;
      c.order.push_back(cur);
      const std::uint32_t load = pick.load + 1;
      c.busiest = std::max(c.busiest, load);
      c.total += load;
      cur = pick.sw;
    }
  }
  return c;
}

void McastTreeBuilder::commit(const McastCandidate& chosen, const std::vector<McastAttach>& on_tree,
                              std::vector<std::uint32_t>& link_load, std::vector<std::uint32_t>& root_load,
                              McastTree& tree) const {
  // Masks: the parent link, the child links, the member ports hanging off the switch.
  std::vector<McastPortMask> masks(graph_.num_switches());
  for (SwitchIndex s : chosen.order) {
    if (s == chosen.root) continue;
    const PortNum up = chosen.up_port[s];
    masks[s].set(up);
    masks[chosen.parent[s]].set(graph_.peer_port(s, up));
    ++link_load[cable(s, up)];
  }
  for (const McastAttach& a : on_tree) masks[a.sw].set(a.port);
  ++root_load[chosen.root];
  tree.root = topo_.node(graph_.node(chosen.root)).guid;
  for (SwitchIndex s : chosen.order) tree.switches.emplace_back(topo_.node(graph_.node(s)).guid, masks[s]);
  std::sort(tree.switches.begin(), tree.switches.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
}

Result<McastTree> McastTreeBuilder::place(const McastGroupPorts& group, std::vector<std::uint32_t>& link_load,
                                          std::vector<std::uint32_t>& root_load, const McastTree* previous) const {
  auto attached = attach_members(group);
  if (!attached) return attached.error();
  McastTree tree;
  const std::uint32_t comp = tree_component(*attached, component_);
  std::vector<McastAttach> on_tree;
  for (const McastAttach& a : *attached) {
    if (a.sw != kNoSwitch && component_[a.sw] == comp) {
      on_tree.push_back(a);
      tree.members.push_back(a.member);
    } else {
      tree.unreachable.push_back(a.member);
    }
  }
  std::sort(tree.members.begin(), tree.members.end());
  std::sort(tree.unreachable.begin(), tree.unreachable.end());
  if (on_tree.size() < 2) return tree;

  std::vector<SwitchIndex> member_sw;
  for (const McastAttach& a : on_tree) member_sw.push_back(a.sw);
  std::sort(member_sw.begin(), member_sw.end());
  member_sw.erase(std::unique(member_sw.begin(), member_sw.end()), member_sw.end());
  std::vector<SwitchIndex> roots = root_candidates(member_sw, comp, group.mlid, root_load);

  // Joins only (every member of the previous tree is still one, all reachable): grow the previous tree.
  std::optional<McastCandidate> kept;
  if (previous != nullptr && previous->unreachable.empty() && previous->root != 0 &&
      std::includes(tree.members.begin(), tree.members.end(), previous->members.begin(), previous->members.end())) {
    kept = reuse(*previous, comp);
    if (kept) roots.assign(1, kept->root);
  }

  McastCandidate chosen;
  bool have = false;
  for (SwitchIndex r : roots) {
    McastCandidate c = grow(r, member_sw, kept ? &*kept : nullptr, group.mlid, link_load);
    if (!have || std::make_tuple(c.busiest, c.total, c.order.size()) <
                     std::make_tuple(chosen.busiest, chosen.total, chosen.order.size())) {
      chosen = std::move(c);
      have = true;
    }
  }
  commit(chosen, on_tree, link_load, root_load, tree);
  return tree;
}

Result<McastTables> McastTreeBuilder::update(const McastTables& previous,
                                             const std::vector<McastGroupPorts>& changed) const {
  std::vector<const McastGroupPorts*> todo;
  std::set<Lid> mlids;
  for (const McastGroupPorts& g : changed) {
    if (g.mlid < kFirstMulticastLid || g.mlid == 0xFFFF) {
      return make_error(ErrorCode::kInvalidInput, "MLID " + format_mlid(g.mlid) + " is not a multicast LID");
    }
    if (!mlids.insert(g.mlid).second) {
      return make_error(ErrorCode::kInvalidInput, "MLID " + format_mlid(g.mlid) + " is listed twice");
    }
    todo.push_back(&g);
  }
  std::sort(todo.begin(), todo.end(),
            [](const McastGroupPorts* a, const McastGroupPorts* b) { return a->mlid < b->mlid; });

  McastTables out = previous;
  for (Lid m : mlids) out.trees.erase(m);
  // Load of the trees kept: each cable counted once per group (from the end whose slot is lower).
  std::vector<std::uint32_t> link_load(graph_.num_slots(), 0);
  std::vector<std::uint32_t> root_load(graph_.num_switches(), 0);
  for (const auto& [mlid, tree] : out.trees) {
    if (auto r = topo_.find(tree.root)) {
      if (const SwitchIndex s = graph_.index_of(*r); s != kNoSwitch) ++root_load[s];
    }
    for_each_tree_cable(topo_, graph_, tree, [&](SwitchIndex s, PortNum p, std::uint32_t c) {
      if (c == graph_.slot(s, p)) ++link_load[c];
    });
  }
  for (const McastGroupPorts* g : todo) {
    if (g->members.empty()) continue;
    auto before = previous.trees.find(g->mlid);
    Result<McastTree> t = place(*g, link_load, root_load, before == previous.trees.end() ? nullptr : &before->second);
    if (!t.ok()) return t.error();
    out.trees[g->mlid] = std::move(t.value());
  }
  return out;
}

std::vector<Lid> groups_to_rebuild(const Topology& topo, const McastTables& previous,
                                   const std::vector<McastGroupPorts>& groups) {
  std::vector<Lid> out;
  for (const McastGroupPorts& g : groups) {
    auto it = previous.trees.find(g.mlid);
    if (it == previous.trees.end()) {
      if (!g.members.empty()) out.push_back(g.mlid);
      continue;
    }
    const McastTree& tree = it->second;
    std::vector<McastMember> want;
    bool bad = false;
    for (const auto& [n, p] : g.members) {
      if (n >= topo.size()) {
        bad = true;
        break;
      }
      want.push_back({topo.node(n).guid, p});
    }
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    if (bad || !tree.unreachable.empty() || want != tree.members || !check_mcast_tree(topo, g.mlid, tree).empty()) {
      out.push_back(g.mlid);
    }
  }
  return out;
}

}  // namespace smd
