#include "routing/verify/hop_vl_deps.h"

#include <algorithm>

namespace smd {
namespace {

/// Adjacency of the virtual-channel graph: [vc] -> successors, each once.
using VcGraph = std::vector<std::vector<std::uint32_t>>;

void add_vc_edge(VcGraph& g, std::uint32_t from, std::uint32_t to) {
  std::vector<std::uint32_t>& out = g[from];
  if (std::find(out.begin(), out.end(), to) == out.end()) out.push_back(to);
}

/// One cycle of `g` as vertices in order, empty when acyclic. Iterative DFS with three colours.
std::vector<std::uint32_t> find_vc_cycle(const VcGraph& g) {
  enum : std::uint8_t { kWhite, kGrey, kBlack };
  std::vector<std::uint8_t> colour(g.size(), kWhite);
  std::vector<std::uint32_t> parent(g.size(), 0);
  std::vector<std::pair<std::uint32_t, std::size_t>> stack;
  for (std::uint32_t root = 0; root < g.size(); ++root) {
    if (colour[root] != kWhite || g[root].empty()) continue;
    stack.emplace_back(root, 0);
    colour[root] = kGrey;
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      if (next == g[v].size()) {
        colour[v] = kBlack;
        stack.pop_back();
        continue;
      }
      const std::uint32_t w = g[v][next++];
      if (colour[w] == kGrey) {
        std::vector<std::uint32_t> cycle{w};
        for (std::uint32_t x = v; x != w; x = parent[x]) cycle.push_back(x);
        std::reverse(cycle.begin() + 1, cycle.end());
        return cycle;
      }
      if (colour[w] == kWhite) {
        colour[w] = kGrey;
        parent[w] = v;
        stack.emplace_back(w, 0);
      }
    }
  }
  return {};
}

}  // namespace

HopVlDeps hop_vl_dependencies(const SwitchGraph& graph, const std::vector<const Lft*>& lft,
                              const std::vector<LidTarget>& targets, const std::vector<std::uint32_t>& comp,
                              const std::vector<bool>& from_cas, const VlLayering& layering) {
  const std::size_t slots = graph.num_slots();
  const std::uint8_t vls = std::max<std::uint8_t>(layering.vls_used(), 1);
  HopVlDeps out;
  out.vls.resize(vls);
  VcGraph all(slots * vls);
  VcGraph ca(slots * vls);
  constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  for (SwitchIndex src = 0; src < graph.num_switches(); ++src) {
    const bool cas = src < from_cas.size() && from_cas[src];
    for (std::size_t l = 1; l < targets.size(); ++l) {
      const LidTarget& t = targets[l];
      if (t.sw == kNoSwitch || comp[t.sw] != comp[src]) continue;
      const auto dlid = static_cast<Lid>(l);
      const std::uint8_t layer = layering.layer_of(graph.node(src), dlid);
      std::uint32_t prev = kNone;  // the virtual channel of the previous hop
      PortNum in = 0;
      walk_lft(
          graph, src, t, [&](SwitchIndex x) { return lft[x]->get(dlid); },
          [&](SwitchIndex x, PortNum p) {
            if (x == t.sw) return;  // delivery: waits on nothing
            const std::uint8_t vl = std::min<std::uint8_t>(layering.vl_at(graph.node(x), in, p, layer),
                                                           static_cast<std::uint8_t>(vls - 1));
            const std::uint32_t vc = static_cast<std::uint32_t>(vl * slots + graph.slot(x, p));
            ++out.vls[vl].hops;
            if (prev != kNone) {
              add_vc_edge(all, prev, vc);
              if (cas) add_vc_edge(ca, prev, vc);
            }
            prev = vc;
            in = graph.peer_port(x, p);
          });
    }
  }
  for (std::size_t vc = 0; vc < all.size(); ++vc) {
    HopVlCdg& c = out.vls[vc / slots];
    if (!all[vc].empty()) ++c.channels;
    c.edges += all[vc].size();
  }
  const std::vector<std::uint32_t> cycle = find_vc_cycle(all);
  out.deadlock_free = cycle.empty();
  for (std::uint32_t vc : cycle) {
    out.vls[vc / slots].acyclic = false;
    out.cycle.emplace_back(static_cast<std::uint8_t>(vc / slots), static_cast<std::uint32_t>(vc % slots));
  }
  if (!out.deadlock_free) {
    const std::vector<std::uint32_t> ca_cycle = find_vc_cycle(ca);
    out.ca_deadlock_free = ca_cycle.empty();
    for (std::uint32_t vc : ca_cycle) out.vls[vc / slots].ca_acyclic = false;
  }
  return out;
}

}  // namespace smd
