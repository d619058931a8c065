#include "routing/engines/ftree/ftree_non_cn.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>

namespace smd {
namespace {

constexpr std::uint64_t kUnreached = std::numeric_limits<std::uint64_t>::max();

/// A route's rank, smaller is better: reverse hops, then cables, then 1 if its first cable goes up.
struct Label {
  static std::uint64_t make(std::uint64_t turns, std::uint64_t hops, bool first_up) {
    return turns << 40 | hops << 1 | (first_up ? 1 : 0);
  }
  static unsigned turns(std::uint64_t key) { return static_cast<unsigned>(key >> 40); }
  static std::uint64_t hops(std::uint64_t key) { return (key >> 1) & ((std::uint64_t{1} << 39) - 1); }
  static bool first_up(std::uint64_t key) { return (key & 1) != 0; }
};

/// One destination LID's shortest legal routes (a Dijkstra from the destination switch over the cables
/// backwards), reused from LID to LID.
class TurnBoundedRoutes {
 public:
  TurnBoundedRoutes(const SwitchGraph& graph, const FatTreeLevels& t)
      : graph_(graph), t_(t), key_(graph.num_switches()), done_(graph.num_switches()), load_(graph.num_slots(), 0) {}

  /// Label every switch for a LID delivered at `dst` with at most `credit` reverse hops; when `row` is
  /// given, also choose each switch's port into it (`deliver` at `dst`) and count the cables' loads.
  void run(SwitchIndex dst, PortNum deliver, unsigned credit, PortNum* row) {
    std::fill(key_.begin(), key_.end(), kUnreached);
    std::fill(done_.begin(), done_.end(), 0);
    using Item = std::pair<std::uint64_t, SwitchIndex>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    key_[dst] = Label::make(0, 0, false);  // delivery goes down to the CA
    queue.emplace(key_[dst], dst);
    while (!queue.empty()) {
      const auto [key, u] = queue.top();
      queue.pop();
      if (done_[u] || key != key_[u]) continue;
      done_[u] = 1;
      if (row) row[u] = u == dst ? deliver : choose_port(u);
      for (const auto& link : graph_.links(u)) {
        const SwitchIndex v = link.peer;
        if (done_[v]) continue;
        // v -> u goes up when u is the higher switch; going down into a switch whose route climbs is a turn.
        const bool v_up = t_.level[u] > t_.level[v];
        const unsigned turns = Label::turns(key) + (!v_up && Label::first_up(key) ? 1 : 0);
        if (turns > credit) continue;
        const std::uint64_t next = Label::make(turns, Label::hops(key) + 1, v_up);
        if (next < key_[v]) key_[v] = next, queue.emplace(next, v);
      }
    }
  }

  /// After run(): whether switch s reached the LID, and with how many reverse hops.
  bool reached(SwitchIndex s) const { return key_[s] != kUnreached; }
  unsigned turns(SwitchIndex s) const { return Label::turns(key_[s]); }

 private:
  /// The port of `u` towards a finished neighbour whose label extends to u's own, least-loaded first.
  PortNum choose_port(SwitchIndex u) {
    PortNum best = kNoPort;
    std::uint64_t best_load = kUnreached;
    for (const auto& link : graph_.links(u)) {
      const SwitchIndex w = link.peer;
      if (!done_[w] || key_[w] == kUnreached) continue;
      const bool up = t_.level[w] > t_.level[u];
      const unsigned turns = Label::turns(key_[w]) + (!up && Label::first_up(key_[w]) ? 1 : 0);
      if (Label::make(turns, Label::hops(key_[w]) + 1, up) != key_[u]) continue;
      const std::uint64_t load = load_[graph_.slot(u, link.port)];
      if (load < best_load) best_load = load, best = link.port;
    }
    ++load_[graph_.slot(u, best)];
    return best;
  }

  const SwitchGraph& graph_;
  const FatTreeLevels& t_;
  std::vector<std::uint64_t> key_;   // [switch] Label of its route, kUnreached if none
  std::vector<std::uint8_t> done_;   // [switch] label final
  std::vector<std::uint64_t> load_;  // [slot] non-CN LIDs routed out of this port so far
};

Error unreachable(const Topology& topo, const SwitchGraph& graph, const NonCnDestination& d, SwitchIndex from,
                  unsigned needed) {
  const Node& ca = topo.node(d.ca.node);
  const PortNum ca_port = topo.node(graph.node(d.ca.sw)).ports[d.ca.port].peer_port;
  const std::string port = describe_node(ca) + " port " + std::to_string(ca_port) + " (" +
                           format_guid(ca.ports[ca_port].guid) + ", LID " + std::to_string(d.ca.base) + ")";
  const std::string where = "switch " + describe_node(topo.node(graph.node(from))) + " reaches " + port +
                            " only with " + std::to_string(needed) + " reverse hop" + (needed == 1 ? "" : "s");
  if (d.io) {
    return make_error(ErrorCode::kDeclined,
                      where + ", routing.ftree.max_reverse_hops is " + std::to_string(d.reverse_hop_credit));
  }
  return make_error(ErrorCode::kDeclined,
                    where +
                        "; it is neither a compute node nor an I/O node: list it in routing.ftree.io_guids "
                        "(I/O nodes may take routing.ftree.max_reverse_hops)");
}

}  // namespace

Result<NonCnRouting> route_non_cns(const Topology& topo, const SwitchGraph& graph, const FatTreeLevels& t,
                                   const std::vector<NonCnDestination>& dests, LidMajorLfts& staged) {
  NonCnRouting out;
  TurnBoundedRoutes routes(graph, t);
  const std::size_t n = graph.num_switches();
  for (const NonCnDestination& d : dests) {
    for (unsigned x = 0; x < d.ca.count; ++x) {
      PortNum* row = staged.row(static_cast<Lid>(d.ca.base + x));
      routes.run(d.ca.sw, d.ca.port, d.reverse_hop_credit, row);
      for (SwitchIndex s = 0; s < n; ++s) {
        if (!routes.reached(s)) {
          // Any connected switch graph is reachable with enough turns: say how many this one needs.
          routes.run(d.ca.sw, d.ca.port, static_cast<unsigned>(n), nullptr);
          return unreachable(topo, graph, d, s, routes.turns(s));
        }
        if (routes.turns(s) > 0) {
          ++out.reverse_routes;
          out.max_reverse_hops_used = std::max(out.max_reverse_hops_used, routes.turns(s));
        }
      }
    }
  }
  return out;
}

}  // namespace smd
