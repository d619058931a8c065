#include "routing/engines/dnup/dnup_deadlock.h"

#include <array>
#include <cstdint>
#include <vector>

namespace smd {

bool dnup_routes_acyclic(const SwitchGraph& graph, const RoutingTables& tables, Lid max_lid) {
  const std::size_t n = graph.num_switches();
  // [slot of (s, p)] the ports q of t = peer_switch(s, p) some route leaves t by after entering on (s, p).
  std::vector<std::array<std::uint64_t, 4>> deps(graph.num_slots(), std::array<std::uint64_t, 4>{});
  const auto out_port = [&](SwitchIndex s, Lid lid) -> PortNum {
    const NodeIndex node = graph.node(s);
    return node < tables.lft.size() ? tables.lft[node].get(lid) : kNoPort;
  };
  const auto onward = [&](SwitchIndex s, PortNum p) {
    return p == kNoPort || p == 0 || p > graph.num_ports(s) ? kNoSwitch : graph.peer_switch(s, p);
  };
  std::vector<Lid> seen(n, 0);
  for (Lid lid = 1; lid <= max_lid; ++lid) {
    for (SwitchIndex start = 0; start < n; ++start) {
      SwitchIndex cur = start;
      std::uint32_t into = 0;  // the channel the packet entered `cur` on; 0 at its first switch
      bool first = true;
      for (std::size_t hops = 0; hops <= n; ++hops) {
        const PortNum p = out_port(cur, lid);
        const SwitchIndex next = onward(cur, p);
        if (!first && next != kNoSwitch) deps[into][p >> 6] |= std::uint64_t{1} << (p & 63);
        if (next == kNoSwitch || seen[cur] == lid) break;  // delivered, dropped, or the rest walked before
        seen[cur] = lid;
        into = graph.slot(cur, p);
        first = false;
        cur = next;
      }
    }
  }
  // Iterative DFS over channels: a back edge (to a channel on the stack) is a cycle.
  std::vector<std::uint32_t> owner(graph.num_slots(), 0);
  for (SwitchIndex s = 0; s < n; ++s) {
    for (PortNum p = 0; p <= graph.num_ports(s); ++p) owner[graph.slot(s, p)] = s;
  }
  enum : std::uint8_t { kWhite, kGrey, kBlack };
  std::vector<std::uint8_t> colour(graph.num_slots(), kWhite);
  struct Frame {
    std::uint32_t slot;
    unsigned next_port;
  };
  std::vector<Frame> stack;
  for (std::uint32_t root = 0; root < graph.num_slots(); ++root) {
    if (colour[root] != kWhite) continue;
    colour[root] = kGrey;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      Frame& f = stack.back();
      const SwitchIndex t = onward(owner[f.slot], static_cast<PortNum>(f.slot - graph.port_base(owner[f.slot])));
      bool pushed = false;
      while (!pushed && t != kNoSwitch && f.next_port < 256) {
        const unsigned q = f.next_port++;
        if ((deps[f.slot][q >> 6] >> (q & 63) & 1) == 0) continue;
        const std::uint32_t child = graph.slot(t, static_cast<PortNum>(q));
        if (colour[child] == kGrey) return false;
        if (colour[child] == kWhite) {
          colour[child] = kGrey;
          stack.push_back({child, 0});
          pushed = true;
        }
      }
      if (!pushed) {
        colour[stack.back().slot] = kBlack;
        stack.pop_back();
      }
    }
  }
  return true;
}

}  // namespace smd
