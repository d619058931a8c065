#include "routing/verify/repair.h"

#include <vector>

#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"

namespace smd {

bool topology_gained_links(const Topology& before, const Topology& now) {
  for (NodeIndex n = 0; n < now.size(); ++n) {
    const Node& node = now.node(n);
    const std::optional<NodeIndex> old = before.find(node.guid);
    if (!old) return true;
    const Node& was = before.node(*old);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (!port.connected()) continue;
      if (p > was.num_ports || !was.ports[p].connected()) return true;
      const Port& old_port = was.ports[p];
      if (before.node(old_port.peer).guid != now.node(port.peer).guid || old_port.peer_port != port.peer_port) {
        return true;
      }
    }
  }
  return false;
}

namespace {

enum class Walk : std::uint8_t { kUnknown, kOnStack, kDelivers, kBroken };

}  // namespace

RoutingTables repair_tables(const Topology& before, const RoutingTables& previous, const Topology& now,
                            const LidMap& lids, const RoutingTables& fresh, RepairStats& stats) {
  RoutingTables out = fresh;
  const SwitchGraph graph = SwitchGraph::build(now);
  const std::size_t n = graph.num_switches();
  // The previous table of each switch of `now`, or null for a switch that is new.
  std::vector<const Lft*> old(n, nullptr);
  for (SwitchIndex s = 0; s < n; ++s) {
    const NodeIndex node = graph.node(s);
    if (const auto o = before.find(now.node(node).guid); o && *o < previous.lft.size() && before.node(*o).is_switch()) {
      old[s] = &previous.lft[*o];
    }
  }
  const SwitchLfts old_lfts(old);
  const std::vector<LidTarget> targets = lid_targets(now, graph, lids);
  std::vector<Walk> state(n);
  std::vector<SwitchIndex> stack;
  for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
    if (!lids.owner(lid)) continue;
    const LidTarget& dst = targets[lid];
    std::fill(state.begin(), state.end(), Walk::kUnknown);
    // Does the old entry chain from switch `start` deliver `lid` on `now`? The hop rule of lft_walk.h,
    // memoised per LID: a switch on the stack again is a loop, a switch already judged ends the walk.
    auto resolve = [&](SwitchIndex start) {
      stack.clear();
      SwitchIndex here = start;
      Walk verdict = Walk::kBroken;
      while (true) {
        if (state[here] == Walk::kDelivers || state[here] == Walk::kBroken) {
          verdict = state[here];
          break;
        }
        if (state[here] == Walk::kOnStack) break;  // a loop: broken
        state[here] = Walk::kOnStack;
        stack.push_back(here);
        SwitchIndex next = kNoSwitch;
        const LftHop hop = lft_hop(graph, here, old_lfts.out_port(here, lid), dst, next);
        if (hop == LftHop::kDelivered) verdict = Walk::kDelivers;
        if (hop != LftHop::kForward) break;
        here = next;
      }
      for (SwitchIndex x : stack) state[x] = verdict;
    };
    bool touched = false;
    for (SwitchIndex s = 0; s < n; ++s) {
      if (state[s] == Walk::kUnknown) resolve(s);
      if (state[s] == Walk::kDelivers) {
        out.lft[graph.node(s)].set(lid, old[s]->get(lid));
        ++stats.entries_kept;
      } else {
        touched = true;
        ++stats.entries_repaired;  // keeps fresh's entry
      }
    }
    if (touched) ++stats.lids_touched;
  }
  return out;
}

}  // namespace smd
