#include "routing/verify/repair.h"

#include <vector>

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
  const std::vector<NodeIndex>& switches = now.switches();
  // The previous table of each switch of `now`, or null for a switch that is new.
  std::vector<const Lft*> old(now.size(), nullptr);
  for (NodeIndex s : switches) {
    if (const auto o = before.find(now.node(s).guid); o && *o < previous.lft.size() && before.node(*o).is_switch()) {
      old[s] = &previous.lft[*o];
    }
  }
  std::vector<Walk> state(now.size());
  std::vector<NodeIndex> stack;
  for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
    const std::optional<LidOwner> owner = lids.owner(lid);
    if (!owner) continue;
    std::fill(state.begin(), state.end(), Walk::kUnknown);
    // Does the old entry chain from switch s deliver `lid` on `now`? Iterative walk, memoised per LID.
    auto resolve = [&](NodeIndex start) {
      stack.clear();
      NodeIndex here = start;
      Walk verdict = Walk::kBroken;
      while (true) {
        if (state[here] == Walk::kDelivers || state[here] == Walk::kBroken) {
          verdict = state[here];
          break;
        }
        if (state[here] == Walk::kOnStack) break;  // a loop: broken
        state[here] = Walk::kOnStack;
        stack.push_back(here);
        const PortNum out_port = old[here] ? old[here]->get(lid) : kNoPort;
        const Node& node = now.node(here);
        if (out_port == 0) {
          verdict = here == owner->node ? Walk::kDelivers : Walk::kBroken;
          break;
        }
        if (out_port == kNoPort || out_port > node.num_ports || !node.ports[out_port].connected()) break;
        const Port& port = node.ports[out_port];
        if (!now.node(port.peer).is_switch()) {
          verdict = port.peer == owner->node && port.peer_port == owner->port ? Walk::kDelivers : Walk::kBroken;
          break;
        }
        here = port.peer;
      }
      for (NodeIndex n : stack) state[n] = verdict;
    };
    bool touched = false;
    for (NodeIndex s : switches) {
      if (state[s] == Walk::kUnknown) resolve(s);
      if (state[s] == Walk::kDelivers) {
        out.lft[s].set(lid, old[s]->get(lid));
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
