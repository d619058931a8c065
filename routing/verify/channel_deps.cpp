#include "routing/verify/channel_deps.h"

#include <algorithm>
#include <bit>
#include <mutex>

namespace smd {

namespace {
constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;
}  // namespace

std::vector<SwitchIndex> slot_switches(const SwitchGraph& graph) {
  std::vector<SwitchIndex> slot_switch(graph.num_slots());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (unsigned p = 0; p <= graph.num_ports(s); ++p) slot_switch[graph.slot(s, static_cast<PortNum>(p))] = s;
  }
  return slot_switch;
}

std::optional<std::vector<std::uint32_t>> find_cdg_cycle(const SwitchGraph& graph, const DepGraph& deps,
                                                         const std::vector<SwitchIndex>& slot_switch) {
  const std::size_t slots = deps.size();
  std::vector<std::uint8_t> color(slots, 0);  // 0 white, 1 grey (on stack), 2 black (done)
  struct Frame {
    std::uint32_t slot;
    unsigned word;
    std::uint64_t rest;  // successor ports of `word` not explored yet
  };
  std::vector<Frame> stack;
  for (std::uint32_t root = 0; root < slots; ++root) {
    if (color[root] != 0) continue;
    color[root] = 1;
    stack.push_back(Frame{root, 0, deps[root][0]});
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.rest == 0) {
        if (++f.word < 4) {
          f.rest = deps[f.slot][f.word];
          continue;
        }
        color[f.slot] = 2;
        stack.pop_back();
        continue;
      }
      const unsigned q = f.word * 64 + static_cast<unsigned>(std::countr_zero(f.rest));
      f.rest &= f.rest - 1;
      const SwitchIndex s = slot_switch[f.slot];
      const SwitchIndex t = graph.peer_switch(s, static_cast<PortNum>(f.slot - graph.port_base(s)));
      const std::uint32_t v = graph.slot(t, static_cast<PortNum>(q));
      if (color[v] == 1) {
        std::vector<std::uint32_t> cycle;
        auto it = std::find_if(stack.begin(), stack.end(), [v](const Frame& x) { return x.slot == v; });
        for (; it != stack.end(); ++it) cycle.push_back(it->slot);
        return cycle;
      }
      if (color[v] == 0) {
        color[v] = 1;
        stack.push_back(Frame{v, 0, deps[v][0]});
      }
    }
  }
  return std::nullopt;
}

std::pair<std::size_t, std::uint64_t> count_dependencies(const DepGraph& deps) {
  std::size_t channels = 0;
  std::uint64_t edges = 0;
  for (const auto& d : deps) {
    const unsigned bits = std::popcount(d[0]) + std::popcount(d[1]) + std::popcount(d[2]) + std::popcount(d[3]);
    edges += bits;
    channels += bits ? 1 : 0;
  }
  return {channels, edges};
}

DepGraph source_dependencies(const SwitchGraph& graph, const SwitchLfts& lfts, const std::vector<LidTarget>& targets,
                             const std::vector<SwitchIndex>& sources) {
  std::mutex mu;
  DepGraph all(graph.num_slots(), std::array<std::uint64_t, 4>{});
  parallel_for_chunks(
      targets.size(), 0,
      [&](std::size_t first, std::size_t last) {
        DepGraph deps(graph.num_slots(), std::array<std::uint64_t, 4>{});
        // on_route[s] == lid: s is on a route from a source to `lid` already, and its dependency is recorded.
        std::vector<Lid> on_route(graph.num_switches(), 0);
        for (std::size_t lid = std::max<std::size_t>(first, 1); lid < last; ++lid) {
          const LidTarget& dst = targets[lid];
          if (dst.sw == kNoSwitch) continue;
          const Lid l = static_cast<Lid>(lid);
          for (SwitchIndex src : sources) {
            // Each hop that forwards to another switch depends on the channel it came in by, if any.
            std::uint32_t in = kNoSlot;
            for (SwitchIndex s = src; s != dst.sw;) {
              const PortNum p = lfts.out_port(s, l);
              SwitchIndex t = kNoSwitch;
              if (lft_hop(graph, s, p, dst, t) != LftHop::kForward) break;
              if (in != kNoSlot) add_dependency(deps, in, p);
              if (on_route[s] == l) break;  // the rest of this route is recorded
              on_route[s] = l;
              in = graph.slot(s, p);
              s = t;
            }
          }
        }
        std::lock_guard lock(mu);
        for (std::size_t i = 0; i < all.size(); ++i) {
          for (unsigned w = 0; w < 4; ++w) all[i][w] |= deps[i][w];
        }
      },
      64);
  return all;
}

}  // namespace smd
