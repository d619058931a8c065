#include "routing/engines/common/ar_groups.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <unordered_map>

#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {
namespace {

constexpr std::uint32_t kInf = 0xFFFFFFFFu;

/// FNV-1a over the port bytes: port sets are short (at most 254 ports), so hashing them whole is cheap.
struct PortSetHash {
  std::size_t operator()(const std::vector<PortNum>& ports) const {
    std::uint64_t h = 1469598103934665603ull;
    for (PortNum p : ports) h = (h ^ p) * 1099511628211ull;
    return static_cast<std::size_t>(h ^ ports.size());
  }
};

/// Hands out one id per distinct sorted port set, appending new sets to plan.groups.
class GroupInterner {
 public:
  explicit GroupInterner(AdaptivePlan& plan) : plan_(plan) { single_.fill(kNoArGroup); }

  std::uint32_t intern(const std::vector<PortNum>& ports) {
    const auto [it, added] = ids_.try_emplace(ports, static_cast<std::uint32_t>(plan_.groups.size()));
    if (added) plan_.groups.push_back(ports);
    return it->second;
  }
  /// The group {port}: asked for on every static-only entry, so cached by port number.
  std::uint32_t single(PortNum port) {
    if (single_[port] == kNoArGroup) single_[port] = intern({port});
    return single_[port];
  }

 private:
  AdaptivePlan& plan_;
  std::unordered_map<std::vector<PortNum>, std::uint32_t, PortSetHash> ids_;
  std::array<std::uint32_t, 256> single_;
};

/// LIDs grouped by the switch that delivers them (index = switch), ascending within each switch.
std::vector<std::vector<Lid>> lids_by_switch(const std::vector<LidTarget>& targets, std::size_t switches) {
  std::vector<std::vector<Lid>> out(switches);
  for (std::size_t lid = 1; lid < targets.size(); ++lid) {
    if (targets[lid].sw != kNoSwitch) out[targets[lid].sw].push_back(static_cast<Lid>(lid));
  }
  return out;
}

/// True when some switch of dst's component has no legal up*/down* path to it: its switch LID is then
/// routed through a valley by route_switch_lid_via_valley, and its groups stay static.
bool needs_valley(const DestPaths& paths, const std::vector<std::uint32_t>& component) {
  for (SwitchIndex v = 0; v < component.size(); ++v) {
    if (component[v] == component[paths.dst()] && paths.dist(v) == DestPaths::kInf) return true;
  }
  return false;
}

/// Legal distances to one destination switch under the rule a destination-based LFT imposes (the LFT
/// cannot tell how a packet arrived, so a switch with an all-down path must take it):
///   down[v] = shortest all-down path (BFS backwards over cables that go down towards dst), kInf if none;
///   dist[v] = down[v] where finite, else 1 + min dist over v's up-neighbours (kInf if none).
/// Up-neighbours come earlier in order.by_pos, so one pass in that order finalises dist.
struct LegalDistances {
  std::vector<std::uint32_t> dist, down;

  void compute(const SwitchGraph& graph, const UpDownOrder& order, SwitchIndex dst) {
    const std::size_t n = graph.num_switches();
    dist.assign(n, kInf);
    down.assign(n, kInf);
    std::vector<SwitchIndex> queue{dst};
    down[dst] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const SwitchIndex w = queue[head];
      for (const auto& link : graph.links(w)) {
        // u -> w goes down iff w -> u goes up.
        if (down[link.peer] == kInf && order.is_up(w, link.peer)) {
          down[link.peer] = down[w] + 1;
          queue.push_back(link.peer);
        }
      }
    }
    for (const SwitchIndex v : order.by_pos) {
      if (down[v] != kInf) {
        dist[v] = down[v];
        continue;
      }
      for (const auto& link : graph.links(v)) {
        if (order.is_up(v, link.peer) && dist[link.peer] != kInf) dist[v] = std::min(dist[v], dist[link.peer] + 1);
      }
    }
  }
};

}  // namespace

Result<AdaptivePlan> build_ar_plan(const Topology& topo, const LidMap& lids, const UpDownOrder& order,
                                   const RoutingTables& tables) {
  if (tables.lft.size() < topo.size()) {
    return make_error(ErrorCode::kInvalidInput, "AR plan: tables cover fewer nodes than the topology");
  }
  const SwitchGraph graph = SwitchGraph::build(topo);
  const std::size_t n = graph.num_switches();
  const auto targets = lid_targets(topo, graph, lids);
  const auto component = switch_components(graph);
  const auto by_dst = lids_by_switch(targets, n);

  AdaptivePlan plan;
  plan.group_of.resize(topo.size());
  for (SwitchIndex s = 0; s < n; ++s) {
    const Lft& lft = tables.lft[graph.node(s)];
    if (!lft.empty()) plan.group_of[graph.node(s)].assign(static_cast<std::size_t>(lft.top()) + 1, kNoArGroup);
  }
  GroupInterner interner(plan);
  DestPaths paths;
  std::vector<std::uint32_t> legal(n, kNoArGroup);  // [switch] interned candidate set towards the current dst
  std::vector<PortNum> ports;
  for (SwitchIndex d = 0; d < n; ++d) {
    if (by_dst[d].empty()) continue;
    paths.compute(graph, order, d);
    for (SwitchIndex v = 0; v < n; ++v) {
      legal[v] = kNoArGroup;
      if (v == d || paths.dist(v) == DestPaths::kInf) continue;
      ports.clear();
      for (const auto& link : paths.candidates(v)) ports.push_back(link.port);
      std::sort(ports.begin(), ports.end());
      ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
      legal[v] = interner.intern(ports);
    }
    const bool valley = needs_valley(paths, component);
    for (const Lid lid : by_dst[d]) {
      const bool static_only = valley && targets[lid].port == 0;
      for (SwitchIndex v = 0; v < n; ++v) {
        const PortNum p = tables.lft[graph.node(v)].get(lid);
        if (p == kNoPort) continue;
        std::uint32_t id = interner.single(p);
        if (!static_only && legal[v] != kNoArGroup) {
          const auto& members = plan.groups[legal[v]];
          if (std::binary_search(members.begin(), members.end(), p)) id = legal[v];
        }
        plan.group_of[graph.node(v)][lid] = id;
      }
    }
  }
  return plan;
}

Status verify_ar_plan(const Topology& topo, const LidMap& lids, const UpDownOrder& order, const RoutingTables& tables,
                      const AdaptivePlan& plan) {
  const SwitchGraph graph = SwitchGraph::build(topo);
  const std::size_t n = graph.num_switches();
  const auto targets = lid_targets(topo, graph, lids);
  const auto by_dst = lids_by_switch(targets, n);
  const auto fail = [&](SwitchIndex v, Lid lid, PortNum port, const std::string& why) -> Status {
    char buf[64];
    std::snprintf(buf, sizeof buf, " LID 0x%04x port %u: ", lid, static_cast<unsigned>(port));
    return make_error(ErrorCode::kVerifyFailed,
                      "AR plan: switch " + format_guid(topo.node(graph.node(v)).guid) + buf + why);
  };
  for (const auto& group : plan.groups) {
    if (group.empty() || !std::is_sorted(group.begin(), group.end()) ||
        std::adjacent_find(group.begin(), group.end()) != group.end()) {
      return make_error(ErrorCode::kVerifyFailed, "AR plan: a group is empty, unsorted or repeats a port");
    }
  }

  LegalDistances dist;
  std::vector<std::uint8_t> entered_down(n);  // [switch] some non-static member reaches it going down
  std::vector<std::uint8_t> static_down(n);   // [switch] some static-only group reaches it going down
  for (SwitchIndex d = 0; d < n; ++d) {
    if (by_dst[d].empty()) continue;
    dist.compute(graph, order, d);
    for (const Lid lid : by_dst[d]) {
      std::fill(entered_down.begin(), entered_down.end(), 0);
      std::fill(static_down.begin(), static_down.end(), 0);
      // Pass 1: membership of the static port, shortest legal members, and where packets arrive going down.
      for (SwitchIndex v = 0; v < n; ++v) {
        const PortNum fixed = tables.lft[graph.node(v)].get(lid);
        const auto* group = plan.group(graph.node(v), lid);
        if (group == nullptr) {
          if (fixed != kNoPort) return fail(v, lid, fixed, "routed by the LFT but has no AR group");
          continue;
        }
        if (!std::binary_search(group->begin(), group->end(), fixed)) {
          return fail(v, lid, fixed, "static LFT port is not a member of the AR group");
        }
        const bool static_only = group->size() == 1;  // == {fixed}, checked just above
        for (const PortNum p : *group) {
          if (v == d) {
            if (p != targets[lid].port) return fail(v, lid, p, "destination switch does not deliver the LID");
            continue;
          }
          const SwitchIndex w = p <= graph.num_ports(v) ? graph.peer_switch(v, p) : kNoSwitch;
          if (w == kNoSwitch) return fail(v, lid, p, "member does not lead to a switch");
          const bool up = order.is_up(v, w);
          if (!up) (static_only ? static_down : entered_down)[w] = 1;
          if (static_only) continue;
          if (dist.dist[v] == kInf) return fail(v, lid, p, "adaptive group at a switch with no legal path");
          if (up && dist.down[v] != kInf) return fail(v, lid, p, "up-going member at a switch that can go all down");
          const std::uint32_t next = up ? dist.dist[w] : dist.down[w];
          if (next == kInf || next + 1 != dist.dist[v]) {
            return fail(v, lid, p,
                        up ? "up-going member is not on a shortest legal path"
                           : "down-going member is not on a shortest all-down path");
          }
        }
      }
      // Pass 2: no down->up turn that an adaptive choice creates (static-into-static is the LFT's own).
      for (SwitchIndex v = 0; v < n; ++v) {
        if (!entered_down[v] && !static_down[v]) continue;
        const auto* group = plan.group(graph.node(v), lid);
        if (group == nullptr || v == d) continue;
        if (!entered_down[v] && group->size() == 1) continue;
        for (const PortNum p : *group) {
          if (order.is_up(v, graph.peer_switch(v, p)))
            return fail(v, lid, p, "down->up turn after a down-going member");
        }
      }
    }
  }
  return Ok{};
}

Status attach_ar_plan(const Topology& topo, const LidMap& lids, const UpDownOrder& order, RoutingTables& tables) {
  auto plan = build_ar_plan(topo, lids, order, tables);
  if (!plan) return plan.error();
  if (auto st = verify_ar_plan(topo, lids, order, tables, *plan); !st) return st.error();
  tables.adaptive = std::make_shared<const AdaptivePlan>(std::move(plan).value());
  return Ok{};
}

}  // namespace smd
