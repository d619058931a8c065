#include "routing/engines/torus_2qos/torus_2qos.h"

#include <algorithm>
#include <memory>
#include <string>

#include "routing/engines/common/vl_budget.h"
#include "routing/engines/torus_2qos/torus_coords.h"
#include "routing/model/hop_table.h"

namespace smd {
namespace {

/// In/out port class of a port that is not a torus link: CA, router and port 0 (OpenSM's TORUS_MAX_DIM).
constexpr std::uint8_t kEndPortClass = kTorusDims;

/// The switches on the grid with their cables sorted by the direction they point in.
struct TorusLinks {
  const TorusGeometry& g;
  const TorusPlacement& at;
  /// [switch][2 * dim + (1 for +)] the ports to the neighbour that way, in port order. A ring of 2 has the
  /// same neighbour both ways: its cables are listed under both.
  std::vector<std::array<std::vector<PortNum>, 2 * kTorusDims>> ports;
  /// [switch][port] the dimension a switch-to-switch port points along, kEndPortClass for the others.
  std::vector<std::vector<std::uint8_t>> dim_of;

  TorusLinks(const SwitchGraph& graph, const TorusGeometry& geometry, const TorusPlacement& placement)
      : g(geometry), at(placement), ports(graph.num_switches()), dim_of(graph.num_switches()) {
    for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
      dim_of[s].assign(static_cast<std::size_t>(graph.num_ports(s)) + 1, kEndPortClass);
      for (const SwitchGraph::Link& l : graph.links(s)) {
        for (unsigned d = 0; d < kTorusDims; ++d) {
          for (unsigned plus = 0; plus < 2; ++plus) {
            if (g.radix[d] < 2 || step(at.coord[s], d, plus) != at.coord[l.peer]) continue;
            ports[s][2 * d + plus].push_back(l.port);
            dim_of[s][l.port] = static_cast<std::uint8_t>(d);
          }
        }
      }
    }
  }

  /// c one step along d, + when `plus`; on a mesh past the edge it stays put (no switch differs from c).
  TorusCoord step(TorusCoord c, unsigned d, unsigned plus) const {
    const unsigned r = g.radix[d];
    if (g.ring[d]) {
      c[d] = plus ? (c[d] + 1) % r : (c[d] + r - 1) % r;
    } else if (plus ? c[d] + 1 < r : c[d] > 0) {
      c[d] = plus ? c[d] + 1 : c[d] - 1;
    }
    return c;
  }
  /// The switch one cable from s along d (+ when plus), kNoSwitch when there is no such cable.
  SwitchIndex next(SwitchIndex s, unsigned d, unsigned plus) const {
    if (ports[s][2 * d + plus].empty()) return kNoSwitch;
    return at.at[TorusPlacement::index(g, step(at.coord[s], d, plus))];
  }
  /// Whether the cables from s along d (+ when plus) reach `to`.
  bool reaches(SwitchIndex s, unsigned d, unsigned plus, SwitchIndex to) const {
    SwitchIndex x = s;
    for (unsigned left = g.radix[d]; left > 0 && x != kNoSwitch; --left) {
      x = next(x, d, plus);
      if (x == to) return true;
    }
    return false;
  }
};

/// OpenSM's get_pathlen: the direct and the wrapping length between two ring positions.
void path_lengths(unsigned a, unsigned b, unsigned r, unsigned& direct, unsigned& wrap) {
  const unsigned lo = std::min(a, b);
  const unsigned hi = std::max(a, b);
  direct = hi - lo;
  wrap = lo + r - hi;
}

/// The way (1 = +) the shorter path from a to b goes; the direct one on a tie (OpenSM's ring_dir_idx).
unsigned shorter_way(unsigned a, unsigned b, unsigned r) {
  unsigned direct = 0;
  unsigned wrap = 0;
  path_lengths(a, b, r, direct, wrap);
  const bool up = b > a;
  return (direct <= wrap) == up ? 1 : 0;
}

/// SL bit d of a path from position a to b on a ring of r: its shorter way wraps (OpenSM's use_vl1).
bool crosses_dateline(unsigned a, unsigned b, unsigned r) {
  unsigned direct = 0;
  unsigned wrap = 0;
  path_lengths(a, b, r, direct, wrap);
  return wrap < direct;
}

/// SL -> VL of a switch hop in by class `in` (a dimension or kEndPortClass), out by class `out`, on
/// switches that operate `vls` data VLs (OpenSM's sl2vl_entry).
HopVlMap switch_map(std::uint8_t in, std::uint8_t out, unsigned vls) {
  HopVlMap m{};
  for (unsigned sl = 0; sl < m.size(); ++sl) {
    const unsigned qos = (sl >> kTorusDims) & 1;
    unsigned vl = 0;
    if (out != kEndPortClass) {
      if (vls >= 2) vl |= (sl >> out) & 1;
      if (vls >= 4 && in != kEndPortClass && in > out) vl |= 2;
      if (vls >= 8) vl |= qos << 2;
    } else if (vls >= 2) {
      vl = qos;
    }
    m[sl] = static_cast<std::uint8_t>(vl);
  }
  return m;
}

/// Rings (and mesh lines) a failure broke in two or more pieces: the first one found, as a message.
std::string broken_ring(const Topology& topo, const SwitchGraph& graph, const TorusLinks& links) {
  const TorusGeometry& g = links.g;
  for (unsigned d = 0; d < kTorusDims; ++d) {
    if (g.radix[d] < 2) continue;
    const unsigned r = g.radix[d];
    // Every line along d: positions with coordinate d = 0.
    for (std::size_t i = 0; i < links.at.at.size(); ++i) {
      const SwitchIndex s0 = links.at.at[i];
      if (s0 == kNoSwitch || links.at.coord[s0][d] != 0) continue;
      std::vector<std::string> gaps;
      SwitchIndex x = s0;
      for (unsigned k = 0; k + 1 < r || (g.ring[d] && k + 1 == r); ++k) {
        const SwitchIndex y = links.at.at[TorusPlacement::index(g, links.step(links.at.coord[x], d, 1))];
        if (links.ports[x][2 * d + 1].empty()) {
          gaps.push_back(coord_text(links.at.coord[x]) + "-" + coord_text(links.at.coord[y]));
        }
        x = y;
      }
      const std::size_t pieces_at = g.ring[d] ? 2 : 1;
      if (gaps.size() >= pieces_at) {
        const Node& n = topo.node(graph.node(s0));
        std::string text = std::string(g.ring[d] ? "the ring" : "the mesh line") + " along " + "xyz"[d] +
                           " through " + coord_text(links.at.coord[s0]) + " (switch " + format_guid(n.guid) +
                           ") is broken into " + std::to_string(g.ring[d] ? gaps.size() : gaps.size() + 1) +
                           " pieces, cables missing between";
        for (const std::string& gap : gaps) text += " " + gap;
        return text + "; torus-2QoS routes round a ring broken once only";
      }
    }
  }
  return {};
}

/// [switch][port] the rank of a destination port at its switch in round-robin order: port 0 and the
/// CA/router ports in `order` first (the order given), then the rest in port order.
std::vector<std::vector<std::uint32_t>> end_port_ranks(const SwitchGraph& graph, const TorusLinks& links,
                                                       const std::vector<PortNum>& order) {
  std::vector<std::vector<std::uint32_t>> rank(graph.num_switches());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    const PortNum n = graph.num_ports(s);
    rank[s].assign(static_cast<std::size_t>(n) + 1, 0);
    std::uint32_t next = 0;
    const auto end_port = [&](PortNum p) { return p <= n && links.dim_of[s][p] == kEndPortClass; };
    std::vector<bool> done(static_cast<std::size_t>(n) + 1, false);
    for (PortNum p : order) {
      if (!end_port(p) || done[p]) continue;
      rank[s][p] = next++;
      done[p] = true;
    }
    for (PortNum p = 0; p <= n; ++p) {
      if (!end_port(p) || done[p]) continue;
      rank[s][p] = next++;
    }
  }
  return rank;
}

}  // namespace

Result<RoutingTables> Torus2QosEngine::compute(const Topology& topo, const LidMap& lids) const {
  const Lid max_lid = lids.max_lid();
  if (max_lid == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  const TorusGeometry& g = options_.geometry;
  if (g.switches() <= 1) {
    return make_error(ErrorCode::kDeclined,
                      "no torus configured (routing.torus_2qos: config_file, or x_radix and xp_link ...)");
  }
  const SwitchGraph graph = SwitchGraph::build(topo);
  auto placed = place_switches(topo, graph, g);
  if (!placed) return placed.error();
  for (std::size_t i = 0; i < placed->at.size(); ++i) {
    if (placed->at[i] != kNoSwitch) continue;
    TorusCoord c{};
    c[0] = static_cast<unsigned>(i % g.radix[0]);
    c[1] = static_cast<unsigned>(i / g.radix[0] % g.radix[1]);
    c[2] = static_cast<unsigned>(i / g.radix[0] / g.radix[1]);
    return make_error(ErrorCode::kDeclined, "no switch at " + coord_text(c) +
                                                " of the torus: routing round a failed switch (torus-2QoS's "
                                                "early turn) is not implemented in smd");
  }
  const TorusLinks links(graph, g, *placed);
  if (std::string broken = broken_ring(topo, graph, links); !broken.empty()) {
    return make_error(ErrorCode::kDeclined, broken);
  }
  const VlBudget budget = available_data_vls(topo, data_vls_, 0, "");
  bool rings = false;
  for (unsigned d = 0; d < kTorusDims; ++d) rings = rings || (g.ring[d] && g.radix[d] > 2);
  if (rings && budget.vls < 2) return layers_do_not_fit(2, false, budget);

  // The first hop from every switch to every other, and the SL of the pair.
  const std::size_t n = graph.num_switches();
  constexpr std::uint8_t kNoGroup = 0xFF;
  std::vector<std::uint8_t> group(n * n, kNoGroup);
  std::vector<std::uint8_t> sl(n * n, 0);
  for (SwitchIndex s = 0; s < n; ++s) {
    const TorusCoord& cs = placed->coord[s];
    for (SwitchIndex t = 0; t < n; ++t) {
      const TorusCoord& ct = placed->coord[t];
      std::uint8_t bits = 0;
      for (unsigned d = 0; d < kTorusDims; ++d) {
        if (g.radix[d] > 1 && crosses_dateline(cs[d], ct[d], g.radix[d])) bits |= static_cast<std::uint8_t>(1u << d);
      }
      sl[s * n + t] = bits;
      for (unsigned d = 0; d < kTorusDims; ++d) {
        if (cs[d] == ct[d]) continue;
        // Head for the switch where the path turns out of d, the shorter way unless a failure blocks it.
        TorusCoord turn = cs;
        turn[d] = ct[d];
        const SwitchIndex tsw = placed->at[TorusPlacement::index(g, turn)];
        unsigned way = shorter_way(cs[d], ct[d], g.radix[d]);
        if (!links.reaches(s, d, way, tsw)) way ^= 1u;
        if (links.reaches(s, d, way, tsw)) group[s * n + t] = static_cast<std::uint8_t>(2 * d + way);
        break;
      }
    }
  }

  const std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  const auto rank = end_port_ranks(graph, links, g.port_order);
  RoutingTables tables;
  tables.engine = std::string(name());
  tables.lft.resize(topo.size());
  VlLayering layering(topo, max_lid);
  for (SwitchIndex s = 0; s < n; ++s) {
    Lft lft(max_lid);
    const NodeIndex node = graph.node(s);
    for (std::size_t l = 1; l <= max_lid && l < targets.size(); ++l) {
      const LidTarget& t = targets[l];
      if (t.sw == kNoSwitch) continue;
      const auto lid = static_cast<Lid>(l);
      layering.set(node, lid, sl[s * n + t.sw]);
      if (t.sw == s) {
        lft.set(lid, t.port);
        continue;
      }
      const std::uint8_t k = group[s * n + t.sw];
      if (k == kNoGroup) continue;
      const std::vector<PortNum>& ports = links.ports[s][k];
      const std::uint32_t r = t.port < rank[t.sw].size() ? rank[t.sw][t.port] : 0;
      lft.set(lid, ports[r % ports.size()]);
    }
    tables.lft[node] = std::move(lft);
  }

  // The SL2VL of every switch port pair (by in class) and of every end port cabled to a switch.
  auto hops = std::make_shared<HopSl2Vl>(topo.size());
  const unsigned vls = budget.vls;
  for (SwitchIndex s = 0; s < n; ++s) {
    const NodeIndex node = graph.node(s);
    hops->set_classes(node, links.dim_of[s], kEndPortClass + 1);
    for (std::uint8_t in = 0; in <= kEndPortClass; ++in) {
      for (PortNum out = 0; out < links.dim_of[s].size(); ++out) {
        hops->set(node, in, out, switch_map(in, links.dim_of[s][out], vls));
      }
    }
  }
  for (NodeIndex node = 0; node < topo.size(); ++node) {
    const Node& nd = topo.node(node);
    if (nd.is_switch()) continue;
    hops->set_classes(node, std::vector<std::uint8_t>(static_cast<std::size_t>(nd.num_ports) + 1, 0), 1);
    for (PortNum p = 0; p <= nd.num_ports; ++p) hops->set(node, 0, p, switch_map(kEndPortClass, kEndPortClass, vls));
  }
  layering.set_vls_available(budget.vls);
  layering.set_hop_sl2vl(std::move(hops));
  tables.layering = std::make_shared<const VlLayering>(std::move(layering));
  tables.deadlock_free = true;
  if (placed->seed > 0) tables.notes.push_back("torus-2QoS: seed " + std::to_string(placed->seed + 1) + " used");
  return tables;
}

}  // namespace smd
