#include "routing/roce/bgp_fib.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace smd::roce {
namespace {

constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();

/// The groups of every switch toward one destination: group of s = ports[start[s] .. start[s + 1]).
struct TowardOne {
  std::vector<std::uint32_t> start;
  std::vector<PortNum> ports;
};

/// One destination's rounds: round k fixes the switches whose best AS_PATH has k hops.
TowardOne solve_destination(const SwitchGraph& g, std::span<const std::uint32_t> asn,
                            std::span<const std::uint32_t> router_id, SwitchIndex dest) {
  const std::size_t n = g.num_switches();
  std::vector<std::uint32_t> length(n, kUnreached);
  std::vector<SwitchIndex> best(n, kNoSwitch);           // the neighbour whose path s advertises
  std::vector<std::uint32_t> touched_in(n, kUnreached);  // round in which s was last offered a path
  std::vector<std::vector<PortNum>> group(n);
  // The AS_PATH that `from` advertises holds asn[x] for x = from, best[from], ..., dest.
  auto path_holds = [&](SwitchIndex from, std::uint32_t as) {
    for (SwitchIndex x = from;; x = best[x]) {
      if (asn[x] == as) return true;
      if (x == dest) return false;
    }
  };
  std::vector<SwitchIndex> frontier{dest}, offered, next;
  length[dest] = 0;
  for (std::uint32_t round = 0; !frontier.empty(); ++round) {
    offered.clear();
    for (SwitchIndex f : frontier) {
      for (const auto& l : g.links(f)) {
        if (length[l.peer] == kUnreached && touched_in[l.peer] != round) {
          touched_in[l.peer] = round;
          offered.push_back(l.peer);
        }
      }
    }
    next.clear();
    for (SwitchIndex s : offered) {
      SwitchIndex chosen = kNoSwitch;
      for (const auto& l : g.links(s)) {  // port order: the group comes out ascending
        if (length[l.peer] != round || path_holds(l.peer, asn[s])) continue;
        group[s].push_back(l.port);
        if (chosen == kNoSwitch || router_id[l.peer] < router_id[chosen]) chosen = l.peer;
      }
      if (chosen == kNoSwitch) continue;  // every offer holds our AS: perhaps a longer one later
      best[s] = chosen;
      next.push_back(s);
    }
    // Only now: a switch fixed in this round offers its path in the next one, not to its peers here.
    for (SwitchIndex s : next) length[s] = round + 1;
    frontier.swap(next);
  }
  TowardOne out;
  out.start.reserve(n + 1);
  out.start.push_back(0);
  for (SwitchIndex s = 0; s < n; ++s) {
    out.ports.insert(out.ports.end(), group[s].begin(), group[s].end());
    out.start.push_back(static_cast<std::uint32_t>(out.ports.size()));
  }
  return out;
}

}  // namespace

EcmpTable bgp_fib(const SwitchGraph& graph, std::span<const std::uint32_t> asn,
                  std::span<const std::uint32_t> router_id, unsigned threads) {
  const std::size_t n = graph.num_switches();
  std::vector<TowardOne> toward(n);
  parallel_for_chunks(
      n, threads,
      [&](std::size_t first, std::size_t last) {
        for (std::size_t d = first; d < last; ++d) {
          toward[d] = solve_destination(graph, asn, router_id, static_cast<SwitchIndex>(d));
        }
      },
      8);
  std::vector<std::uint32_t> offset(n * n + 1, 0);
  for (std::size_t s = 0; s < n; ++s) {
    for (std::size_t d = 0; d < n; ++d) {
      const std::size_t i = s * n + d;
      offset[i + 1] = offset[i] + (toward[d].start[s + 1] - toward[d].start[s]);
    }
  }
  std::vector<PortNum> ports(offset.back());
  for (std::size_t d = 0; d < n; ++d) {
    for (std::size_t s = 0; s < n; ++s) {
      const auto& t = toward[d];
      std::copy(t.ports.begin() + t.start[s], t.ports.begin() + t.start[s + 1], ports.begin() + offset[s * n + d]);
    }
    toward[d] = TowardOne{};
  }
  return EcmpTable::from_groups(n, std::move(offset), std::move(ports));
}

}  // namespace smd::roce
