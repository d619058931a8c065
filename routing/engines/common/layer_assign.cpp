#include "routing/engines/common/layer_assign.h"

#include <algorithm>
#include <string>

#include "routing/model/lft_walk.h"

namespace smd {
namespace {

using EdgeId = std::uint32_t;
using RouteId = std::uint32_t;

/// Routes up to which first fit is tried (see assign_layers). Measured: 0.13 s for the 20,480 routes of a
/// 4x4x4 torus with 4 hosts per switch, 0.85 s for the 82,000 of a random graph of 128 switches.
constexpr std::size_t kFirstFitMaxRoutes = 100000;

/// The dependencies a -> b are numbered per channel a: a's successors are the channels leaving to(a), so
/// dependency a -> b is edge_first[a] + (b - channels.first(to(a))).
struct Dependencies {
  std::vector<EdgeId> edge_first;  // size C+1

  explicit Dependencies(const ChannelIndex& channels) {
    edge_first.reserve(channels.size() + 1);
    EdgeId next = 0;
    for (ChannelId c = 0; c < channels.size(); ++c) {
      edge_first.push_back(next);
      const SwitchIndex v = channels.to(c);
      next += channels.end(v) - channels.first(v);
    }
    edge_first.push_back(next);
  }
  std::size_t size() const { return edge_first.back(); }
};

/// Every route with at least one dependency, its dependencies flattened, and the reverse index.
struct Routes {
  std::vector<SwitchIndex> src;
  std::vector<Lid> dlid;
  std::vector<std::uint32_t> edge_begin{0};  // route r's edges: edges[edge_begin[r] .. edge_begin[r+1])
  std::vector<EdgeId> edges;
  std::vector<std::uint32_t> route_begin;  // edge e's routes: by_edge[route_begin[e] .. route_begin[e+1])
  std::vector<RouteId> by_edge;
};

Result<Routes> collect_routes(const Topology& topo, const SwitchGraph& graph, const ChannelIndex& channels,
                              const Dependencies& deps, const std::vector<LidTarget>& targets,
                              const std::vector<Lft>& lft, Lid max_lid) {
  Routes routes;
  std::vector<ChannelId> path;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (std::size_t lid = 1; lid <= max_lid && lid < targets.size(); ++lid) {
      const LidTarget& t = targets[lid];
      if (t.sw == kNoSwitch) continue;
      path.clear();
      const auto end = walk_lft(
          graph, s, t, [&](SwitchIndex at) { return lft[graph.node(at)].get(static_cast<Lid>(lid)); },
          [&](SwitchIndex at, PortNum p) {
            const ChannelId c = channels.of_port(graph, at, p);
            if (c != kNoChannel) path.push_back(c);
          });
      if (!end.delivered()) {
        // A switch in another component has no route (kNoEntry at the source): nothing to layer.
        if (end.how == LftHop::kNoEntry && end.at == s && path.empty()) continue;
        return make_error(ErrorCode::kInternal, "route from switch " + describe_node(topo.node(graph.node(s))) +
                                                    " to LID " + std::to_string(lid) + " does not deliver");
      }
      if (path.size() < 2) continue;
      routes.src.push_back(s);
      routes.dlid.push_back(static_cast<Lid>(lid));
      for (std::size_t i = 0; i + 1 < path.size(); ++i) {
        const ChannelId a = path[i];
        const ChannelId b = path[i + 1];
        routes.edges.push_back(deps.edge_first[a] + (b - channels.first(channels.to(a))));
      }
      routes.edge_begin.push_back(static_cast<std::uint32_t>(routes.edges.size()));
    }
  }
  // Counting sort of (edge, route) pairs: the routes of each edge, in route order.
  routes.route_begin.assign(deps.size() + 1, 0);
  for (EdgeId e : routes.edges) ++routes.route_begin[e + 1];
  for (std::size_t e = 0; e < deps.size(); ++e) routes.route_begin[e + 1] += routes.route_begin[e];
  routes.by_edge.resize(routes.edges.size());
  std::vector<std::uint32_t> fill(routes.route_begin.begin(), routes.route_begin.end() - 1);
  for (RouteId r = 0; r + 1 < routes.edge_begin.size(); ++r) {
    for (std::uint32_t i = routes.edge_begin[r]; i < routes.edge_begin[r + 1]; ++i) {
      routes.by_edge[fill[routes.edges[i]]++] = r;
    }
  }
  return routes;
}

/// Depth-first search for cycles of one layer's dependency graph (edges whose count is non-zero). Colours
/// survive between calls: a finished (black) channel reaches no cycle, and the caller only ever removes
/// edges, so it stays finished.
class CycleFinder {
 public:
  CycleFinder(const ChannelIndex& channels, const Dependencies& deps, const std::vector<std::uint32_t>& count)
      : channels_(channels), deps_(deps), count_(count), colour_(channels.size(), kWhite) {}

  /// The edges of one cycle, in order; empty when the layer is acyclic.
  std::vector<EdgeId> next_cycle() {
    for (; root_ < channels_.size(); ++root_) {
      if (colour_[root_] != kWhite) continue;
      std::vector<EdgeId> cycle = search(root_);
      if (!cycle.empty()) return cycle;
    }
    return {};
  }

 private:
  enum Colour : std::uint8_t { kWhite, kGrey, kBlack };
  struct Frame {
    ChannelId channel;
    EdgeId edge;     // next edge of `channel` to try
    EdgeId via = 0;  // the edge that led here (unused for the root)
  };

  std::vector<EdgeId> search(ChannelId root) {
    std::vector<Frame> stack{{root, deps_.edge_first[root], 0}};
    colour_[root] = kGrey;
    while (!stack.empty()) {
      Frame& f = stack.back();
      const EdgeId last = deps_.edge_first[f.channel + 1];
      while (f.edge < last && count_[f.edge] == 0) ++f.edge;
      if (f.edge == last) {
        colour_[f.channel] = kBlack;
        stack.pop_back();
        continue;
      }
      const EdgeId e = f.edge++;
      const ChannelId b = channels_.first(channels_.to(f.channel)) + (e - deps_.edge_first[f.channel]);
      if (colour_[b] == kWhite) {
        colour_[b] = kGrey;
        stack.push_back({b, deps_.edge_first[b], e});
        continue;
      }
      if (colour_[b] == kBlack) continue;
      // A grey channel: the stack from b to the top, closed by e, is a cycle.
      std::vector<EdgeId> cycle;
      std::size_t i = stack.size();
      while (stack[i - 1].channel != b) --i;
      for (std::size_t j = i; j < stack.size(); ++j) cycle.push_back(stack[j].via);
      cycle.push_back(e);
      // The search restarts from here once the caller broke the cycle; the open path is explored again.
      for (const Frame& open : stack) colour_[open.channel] = kWhite;
      return cycle;
    }
    return {};
  }

  const ChannelIndex& channels_;
  const Dependencies& deps_;
  const std::vector<std::uint32_t>& count_;
  std::vector<Colour> colour_;
  ChannelId root_ = 0;
};

/// Whether channel `to` is reachable from `from` over the edges of `count` that are non-zero. `stamp`
/// marks visited channels with `mark` (a fresh value per search, so the array is never cleared).
bool reaches(const ChannelIndex& channels, const Dependencies& deps, const std::vector<std::uint32_t>& count,
             ChannelId from, ChannelId to, std::vector<std::uint32_t>& stamp, std::uint32_t mark,
             std::vector<ChannelId>& stack) {
  stack.clear();
  stack.push_back(from);
  stamp[from] = mark;
  while (!stack.empty()) {
    const ChannelId a = stack.back();
    stack.pop_back();
    if (a == to) return true;
    const ChannelId base = channels.first(channels.to(a));
    for (EdgeId e = deps.edge_first[a]; e < deps.edge_first[a + 1]; ++e) {
      if (count[e] == 0) continue;
      const ChannelId b = base + (e - deps.edge_first[a]);
      if (stamp[b] != mark) {
        stamp[b] = mark;
        stack.push_back(b);
      }
    }
  }
  return false;
}

/// The other heuristic, first fit (as LASH places paths): each group of routes, in `groups` order (empty:
/// every route alone, in (switch, LID) order), goes on the lowest layer it joins without closing a cycle
/// there; every dependency it adds is checked for a path back. Layers only ever gain routes that keep
/// them acyclic. Returns the layers used, or max_layers + 1 when some group fits on none (then `layer` is
/// partial).
unsigned first_fit_layers(const ChannelIndex& channels, const Dependencies& deps, const Routes& routes,
                          unsigned max_layers, std::vector<std::uint8_t>& layer,
                          const std::vector<std::vector<RouteId>>& groups = {}) {
  std::vector<std::vector<std::uint32_t>> count;
  std::vector<std::uint32_t> stamp(channels.size(), 0);
  std::uint32_t mark = 0;
  std::vector<ChannelId> stack;
  std::vector<EdgeId> added;
  const auto source_of = [&](EdgeId e) {
    // The channel a of edge a -> b: the last a with edge_first[a] <= e.
    return static_cast<ChannelId>(std::upper_bound(deps.edge_first.begin(), deps.edge_first.end(), e) -
                                  deps.edge_first.begin() - 1);
  };
  std::vector<RouteId> alone(1);
  const std::size_t units = groups.empty() ? layer.size() : groups.size();
  for (std::size_t g = 0; g < units; ++g) {
    if (groups.empty()) alone[0] = static_cast<RouteId>(g);
    const std::vector<RouteId>& group = groups.empty() ? alone : groups[g];
    unsigned to = 0;
    for (; to < max_layers; ++to) {
      if (to == count.size()) count.emplace_back(deps.size(), 0);
      std::vector<std::uint32_t>& c = count[to];
      added.clear();
      for (const RouteId r : group) {
        for (std::uint32_t k = routes.edge_begin[r]; k < routes.edge_begin[r + 1]; ++k) {
          const EdgeId e = routes.edges[k];
          if (c[e] == 0) {
            c[e] = 1;  // tentatively, so that a cycle through two new edges is seen too
            added.push_back(e);
          }
        }
      }
      bool closes = false;
      for (EdgeId e : added) {
        const ChannelId a = source_of(e);
        const ChannelId b = channels.first(channels.to(a)) + (e - deps.edge_first[a]);
        if (++mark == 0) {
          std::fill(stamp.begin(), stamp.end(), 0);
          mark = 1;
        }
        if (reaches(channels, deps, c, b, a, stamp, mark, stack)) {
          closes = true;
          break;
        }
      }
      for (EdgeId e : added) c[e] = 0;
      if (closes) continue;
      for (const RouteId r : group) {
        for (std::uint32_t k = routes.edge_begin[r]; k < routes.edge_begin[r + 1]; ++k) ++c[routes.edges[k]];
        layer[r] = static_cast<std::uint8_t>(to);
      }
      break;
    }
    if (to == max_layers) return max_layers + 1;
  }
  return std::max<unsigned>(1, static_cast<unsigned>(count.size()));
}

/// The layering of `layer` (per route of `routes`) into `out`, or `out.exceeded` when the placement needed
/// more than max_layers (then the layering stays empty).
void finish_layering(const Topology& topo, const SwitchGraph& graph, const Routes& routes,
                     const std::vector<std::uint8_t>& layer, Lid max_lid, std::uint8_t max_layers,
                     LayerAssignment& out) {
  if (out.layers_needed > max_layers) {
    out.exceeded = true;
    return;
  }
  out.layering = VlLayering(topo, max_lid);
  for (RouteId r = 0; r < layer.size(); ++r) {
    if (layer[r] != 0) out.layering.set(graph.node(routes.src[r]), routes.dlid[r], layer[r]);
  }
}

}  // namespace

Result<LayerAssignment> assign_layers(const Topology& topo, const SwitchGraph& graph, const ChannelIndex& channels,
                                      const std::vector<LidTarget>& targets, const std::vector<Lft>& lft, Lid max_lid,
                                      std::uint8_t max_layers, bool allow_first_fit) {
  max_layers = std::clamp<std::uint8_t>(max_layers, 1, kMaxDataVls);
  const Dependencies deps(channels);
  auto collected = collect_routes(topo, graph, channels, deps, targets, lft, max_lid);
  if (!collected) return collected.error();
  const Routes& routes = *collected;
  const std::size_t num_routes = routes.src.size();

  LayerAssignment out;
  out.routes = num_routes;
  std::vector<std::uint8_t> layer(num_routes, 0);
  std::vector<std::uint32_t> count(deps.size(), 0);       // dependencies of the layer being made acyclic
  std::vector<std::uint32_t> next_count(deps.size(), 0);  // of the layer above it, filled by moves
  for (EdgeId e : routes.edges) ++count[e];

  std::uint8_t current = 0;
  bool exceeded = false;
  while (!exceeded) {
    CycleFinder finder(channels, deps, count);
    bool moved_any = false;
    for (std::vector<EdgeId> cycle = finder.next_cycle(); !cycle.empty(); cycle = finder.next_cycle()) {
      EdgeId weakest = cycle.front();
      for (EdgeId e : cycle) {
        if (count[e] < count[weakest]) weakest = e;
      }
      ++out.cycles_broken;
      if (current + 1 >= max_layers) {
        exceeded = true;
        break;
      }
      for (std::uint32_t i = routes.route_begin[weakest]; i < routes.route_begin[weakest + 1]; ++i) {
        const RouteId r = routes.by_edge[i];
        if (layer[r] != current) continue;
        layer[r] = static_cast<std::uint8_t>(current + 1);
        ++out.moves;
        moved_any = true;
        for (std::uint32_t k = routes.edge_begin[r]; k < routes.edge_begin[r + 1]; ++k) {
          --count[routes.edges[k]];
          ++next_count[routes.edges[k]];
        }
      }
    }
    if (!moved_any || exceeded) break;
    ++current;
    count.swap(next_count);
    std::fill(next_count.begin(), next_count.end(), 0);
  }
  out.layers_needed = static_cast<std::uint8_t>(exceeded ? max_layers + 1 : current + 1);
  // First fit often needs fewer layers on tori (6 instead of 9 on a 4x4x4 one), but its cycle checks
  // cost up to a search of the layer per new dependency, so it runs only where the rule needed more
  // than one layer and the routes are few enough (a few hundred hosts, ~100 switches).
  if (allow_first_fit && out.layers_needed > 1 && num_routes <= kFirstFitMaxRoutes) {
    std::vector<std::uint8_t> fitted(num_routes, 0);
    const unsigned layers = first_fit_layers(channels, deps, routes, max_layers, fitted);
    if (layers < out.layers_needed) {
      out.layers_needed = static_cast<std::uint8_t>(layers);
      out.first_fit = true;
      layer.swap(fitted);
    }
  }
  finish_layering(topo, graph, routes, layer, max_lid, max_layers, out);
  return out;
}

Result<LayerAssignment> assign_layers_first_fit(const Topology& topo, const SwitchGraph& graph,
                                                const ChannelIndex& channels, const std::vector<LidTarget>& targets,
                                                const std::vector<Lft>& lft, Lid max_lid, std::uint8_t max_layers,
                                                const std::vector<RouteGroup>& groups) {
  max_layers = std::clamp<std::uint8_t>(max_layers, 1, kMaxDataVls);
  const Dependencies deps(channels);
  auto collected = collect_routes(topo, graph, channels, deps, targets, lft, max_lid);
  if (!collected) return collected.error();
  LayerAssignment out;
  out.routes = collected->src.size();
  out.first_fit = true;
  std::vector<std::uint8_t> layer(out.routes, 0);
  std::vector<std::vector<RouteId>> ids;  // `groups` as route ids, then every route they leave out alone
  if (!groups.empty()) {
    const Routes& routes = *collected;
    std::vector<bool> grouped(out.routes, false);
    for (const RouteGroup& group : groups) {
      std::vector<RouteId> members;
      for (const auto& [src, dlid] : group) {
        // Routes are collected in (switch, LID) order; one without a dependency is not among them.
        RouteId lo = 0, hi = static_cast<RouteId>(out.routes);
        while (lo < hi) {
          const RouteId mid = lo + (hi - lo) / 2;
          if (routes.src[mid] < src || (routes.src[mid] == src && routes.dlid[mid] < dlid)) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        if (lo < out.routes && routes.src[lo] == src && routes.dlid[lo] == dlid && !grouped[lo]) {
          grouped[lo] = true;
          members.push_back(lo);
        }
      }
      if (!members.empty()) ids.push_back(std::move(members));
    }
    for (RouteId r = 0; r < out.routes; ++r) {
      if (!grouped[r]) ids.push_back({r});
    }
  }
  out.layers_needed = static_cast<std::uint8_t>(first_fit_layers(channels, deps, *collected, max_layers, layer, ids));
  finish_layering(topo, graph, *collected, layer, max_lid, max_layers, out);
  return out;
}

void spread_layers(const Topology& topo, VlLayering& layering, std::uint8_t available) {
  const unsigned layers = layering.layers();
  available = std::min<std::uint8_t>(available, kMaxDataVls);
  if (available <= layers) return;
  std::vector<unsigned> first(layers), width(layers), turn(layers, 0);
  unsigned next = 0;
  for (unsigned i = 0; i < layers; ++i) {
    width[i] = available / layers + (i < available % layers ? 1u : 0u);
    first[i] = next;
    next += width[i];
  }
  // Layer i moves to first[i] + k; rewriting in place is safe because each (switch, LID) is read once.
  for (NodeIndex s : topo.switches()) {
    for (Lid lid = 0; lid <= layering.max_lid(); ++lid) {
      const unsigned i = layering.layer_of(s, lid);
      layering.set(s, lid, static_cast<std::uint8_t>(first[i] + turn[i]));
      turn[i] = (turn[i] + 1) % width[i];
    }
  }
}

}  // namespace smd
