#include "routing/engines/torus_2qos/torus_coords.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace smd {
namespace {

/// A position relative to the seed's origin: ring dimensions modulo the radix, mesh ones -(r-1)..r-1.
using Rel = std::array<int, kTorusDims>;

class Grid {
 public:
  explicit Grid(const TorusGeometry& g) : g_(g) {}

  Rel step(Rel c, unsigned d, int by) const {
    c[d] += by;
    const int r = static_cast<int>(g_.radix[d]);
    if (g_.ring[d]) c[d] = ((c[d] % r) + r) % r;
    return c;
  }
  bool inside(const Rel& c) const {
    for (unsigned d = 0; d < kTorusDims; ++d) {
      const int r = static_cast<int>(g_.radix[d]);
      if (!g_.ring[d] && (c[d] > r - 1 || c[d] < -(r - 1))) return false;
    }
    return true;
  }
  /// The positions one hop from c, each once (a ring of 2 has one neighbour, not two).
  std::vector<Rel> neighbours(const Rel& c) const {
    std::vector<Rel> out;
    for (unsigned d = 0; d < kTorusDims; ++d) {
      if (g_.radix[d] < 2) continue;
      for (int by : {-1, 1}) {
        const Rel n = step(c, d, by);
        if (inside(n) && n != c && std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      }
    }
    return out;
  }
  bool adjacent(const Rel& a, const Rel& b) const {
    const std::vector<Rel> n = neighbours(a);
    return std::find(n.begin(), n.end(), b) != n.end();
  }
  unsigned common(const Rel& a, const Rel& b) const {
    const std::vector<Rel> na = neighbours(a);
    const std::vector<Rel> nb = neighbours(b);
    unsigned k = 0;
    for (const Rel& x : na) k += std::find(nb.begin(), nb.end(), x) != nb.end() ? 1 : 0;
    return k;
  }

 private:
  const TorusGeometry& g_;
};

/// Distinct neighbour switches of every switch, sorted.
std::vector<std::vector<SwitchIndex>> neighbour_sets(const SwitchGraph& graph) {
  std::vector<std::vector<SwitchIndex>> out(graph.num_switches());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (const SwitchGraph::Link& l : graph.links(s)) out[s].push_back(l.peer);
    std::sort(out[s].begin(), out[s].end());
    out[s].erase(std::unique(out[s].begin(), out[s].end()), out[s].end());
  }
  return out;
}

unsigned common_count(const std::vector<SwitchIndex>& a, const std::vector<SwitchIndex>& b) {
  unsigned k = 0;
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      ++k;
      ++i;
      ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return k;
}

std::string switch_text(const Topology& topo, const SwitchGraph& graph, SwitchIndex s) {
  const Node& n = topo.node(graph.node(s));
  return format_guid(n.guid) + " \"" + n.description + "\"";
}

std::string rel_text(const Rel& c) {
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

constexpr std::array<const char*, 2 * kTorusDims> kLinkNames = {"xm_link", "xp_link", "ym_link",
                                                                 "yp_link", "zm_link", "zp_link"};

class Placer {
 public:
  Placer(const Topology& topo, const SwitchGraph& graph, const TorusGeometry& g)
      : topo_(topo), graph_(graph), g_(g), grid_(g), nbrs_(neighbour_sets(graph)), rel_(graph.num_switches()) {}

  /// Place the seed's switches; an error says why this seed cannot be used.
  Status seed(const TorusSeed& seed) {
    const auto sw = [&](Guid guid) -> SwitchIndex {
      const auto n = topo_.find(guid);
      return n ? graph_.index_of(*n) : kNoSwitch;
    };
    const SwitchIndex origin = sw(seed.origin);
    if (origin == kNoSwitch) return declined("seed switch " + format_guid(seed.origin) + " is not a switch of the fabric");
    put(origin, Rel{0, 0, 0});
    for (unsigned k = 0; k < 2 * kTorusDims; ++k) {
      if (seed.neighbour[k] == 0) continue;
      const unsigned d = k / 2;
      const SwitchIndex n = sw(seed.neighbour[k]);
      const std::string link = std::string(kLinkNames[k]) + " " + format_guid(seed.origin) + " -> " +
                               format_guid(seed.neighbour[k]);
      if (g_.radix[d] < 2) return declined(link + ": dimension " + "xyz"[d] + " has radix 1");
      if (n == kNoSwitch) return declined(link + ": " + format_guid(seed.neighbour[k]) + " is not a switch of the fabric");
      if (!std::binary_search(nbrs_[origin].begin(), nbrs_[origin].end(), n)) {
        return declined(link + ": no cable between them");
      }
      const Rel at = grid_.step(Rel{0, 0, 0}, d, k % 2 ? 1 : -1);
      if (rel_[n] && *rel_[n] != at) return declined(link + ": the seed places that switch twice");
      if (auto it = at_.find(at); it != at_.end() && it->second != n) return declined(link + ": two switches at one position");
      put(n, at);
    }
    for (unsigned d = 0; d < kTorusDims; ++d) {
      if (g_.radix[d] < 2) continue;
      const bool minus = seed.neighbour[2 * d] != 0;
      const bool plus = seed.neighbour[2 * d + 1] != 0;
      if (!minus && !plus) {
        return declined(std::string("the seed gives no link along ") + "xyz"[d] + " (" + kLinkNames[2 * d + 1] +
                        " or " + kLinkNames[2 * d] + ")");
      }
      if (g_.ring[d] && g_.radix[d] == 4 && !(minus && plus)) {
        return declined(std::string("a ring of 4 along ") + "xyz"[d] + " needs both " + kLinkNames[2 * d + 1] +
                        " and " + kLinkNames[2 * d] + " (torus-2QoS.conf(5))");
      }
    }
    return Ok{};
  }

  /// Place the rest; an error names the first switch left out or a cable that does not fit.
  Status grow() {
    for (bool progress = true; progress;) {
      progress = false;
      for (SwitchIndex m = 0; m < graph_.num_switches(); ++m) {
        if (rel_[m]) continue;
        if (auto at = best_position(m)) {
          put(m, *at);
          progress = true;
        }
      }
    }
    for (SwitchIndex m = 0; m < graph_.num_switches(); ++m) {
      // A switch without a switch cable is no part of the torus (its position reads as failed).
      if (rel_[m] || nbrs_[m].empty()) continue;
      return declined("switch " + switch_text(topo_, graph_, m) + " cannot be placed in the " + shape() +
                      " from its cables (" + std::to_string(placed_) + " of " + std::to_string(graph_.num_switches()) +
                      " switches placed: is the geometry or the seed right?)");
    }
    for (SwitchIndex s = 0; s < graph_.num_switches(); ++s) {
      if (!rel_[s]) continue;
      for (const SwitchGraph::Link& l : graph_.links(s)) {
        if (grid_.adjacent(*rel_[s], *rel_[l.peer])) continue;
        return declined("the cable " + switch_text(topo_, graph_, s) + " port " + std::to_string(l.port) + " - " +
                        switch_text(topo_, graph_, l.peer) + " joins " + rel_text(*rel_[s]) + " and " +
                        rel_text(*rel_[l.peer]) + " (relative to the seed), not neighbours in the " + shape());
      }
    }
    return Ok{};
  }

  /// Coordinates with the datelines of `seed` applied and mesh dimensions starting at 0.
  Result<TorusPlacement> finish(const TorusSeed& seed, std::size_t seed_index) const {
    TorusPlacement out;
    out.seed = seed_index;
    out.coord.resize(graph_.num_switches());
    out.placed.assign(graph_.num_switches(), false);
    out.at.assign(g_.switches(), kNoSwitch);
    Rel low{0, 0, 0};
    for (const auto& r : rel_) {
      if (!r) continue;
      for (unsigned d = 0; d < kTorusDims; ++d) low[d] = std::min(low[d], (*r)[d]);
    }
    for (SwitchIndex s = 0; s < graph_.num_switches(); ++s) {
      if (!rel_[s]) continue;  // no switch cable: no position (TorusPlacement::placed false)
      TorusCoord c{};
      for (unsigned d = 0; d < kTorusDims; ++d) {
        const int r = static_cast<int>(g_.radix[d]);
        const int v = g_.ring[d] ? (((*rel_[s])[d] - seed.dateline[d]) % r + r) % r : (*rel_[s])[d] - low[d];
        if (v >= r) {
          return declined(std::string("the mesh dimension ") + "xyz"[d] + " spans more than its " + std::to_string(r) +
                          " switches (switch " + switch_text(topo_, graph_, s) + ")");
        }
        c[d] = static_cast<unsigned>(v);
      }
      out.coord[s] = c;
      out.placed[s] = true;
      out.at[TorusPlacement::index(g_, c)] = s;
    }
    return out;
  }

 private:
  static Error declined(const std::string& why) { return make_error(ErrorCode::kDeclined, why); }

  std::string shape() const {
    std::string s;
    for (unsigned d = 0; d < kTorusDims; ++d) s += (d ? "x" : "") + std::to_string(g_.radix[d]) + (g_.ring[d] ? "" : "m");
    return s + " torus";
  }

  void put(SwitchIndex s, const Rel& at) {
    if (!rel_[s]) ++placed_;
    rel_[s] = at;
    at_[at] = s;
  }

  /// The one position for m that its placed neighbours and the switches near it agree on, if any.
  std::optional<Rel> best_position(SwitchIndex m) const {
    std::vector<Rel> candidates;
    bool first = true;
    for (SwitchIndex p : nbrs_[m]) {
      if (!rel_[p]) continue;
      std::vector<Rel> free;
      for (const Rel& q : grid_.neighbours(*rel_[p])) {
        if (at_.find(q) == at_.end()) free.push_back(q);
      }
      if (first) {
        candidates = std::move(free);
        first = false;
      } else {
        std::erase_if(candidates, [&](const Rel& q) { return std::find(free.begin(), free.end(), q) == free.end(); });
      }
    }
    if (candidates.empty()) return std::nullopt;
    // Placed switches whose relation to m the geometry fixes: within two cables of m, or within two
    // positions of a candidate.
    std::vector<SwitchIndex> near;
    for (SwitchIndex p : nbrs_[m]) {
      near.push_back(p);
      for (SwitchIndex q : nbrs_[p]) near.push_back(q);
    }
    for (const Rel& q : candidates) {
      for (const Rel& a : grid_.neighbours(q)) {
        if (auto it = at_.find(a); it != at_.end()) near.push_back(it->second);
        for (const Rel& b : grid_.neighbours(a)) {
          if (auto it = at_.find(b); it != at_.end()) near.push_back(it->second);
        }
      }
    }
    std::sort(near.begin(), near.end());
    near.erase(std::unique(near.begin(), near.end()), near.end());
    std::erase_if(near, [&](SwitchIndex p) { return p == m || !rel_[p]; });

    std::optional<Rel> best;
    unsigned best_missing = std::numeric_limits<unsigned>::max();
    bool tie = false;
    for (const Rel& q : candidates) {
      unsigned missing = 0;
      bool contradicted = false;
      for (SwitchIndex p : near) {
        const unsigned want_adj = grid_.adjacent(q, *rel_[p]) ? 1 : 0;
        const unsigned have_adj = std::binary_search(nbrs_[m].begin(), nbrs_[m].end(), p) ? 1 : 0;
        const unsigned want_common = grid_.common(q, *rel_[p]);
        const unsigned have_common = common_count(nbrs_[m], nbrs_[p]);
        if (have_adj > want_adj || have_common > want_common) {
          contradicted = true;
          break;
        }
        missing += (want_adj - have_adj) + (want_common - have_common);
      }
      if (contradicted) continue;
      if (missing < best_missing) {
        best = q;
        best_missing = missing;
        tie = false;
      } else if (missing == best_missing) {
        tie = true;
      }
    }
    if (tie) return std::nullopt;
    return best;
  }

  const Topology& topo_;
  const SwitchGraph& graph_;
  const TorusGeometry& g_;
  Grid grid_;
  std::vector<std::vector<SwitchIndex>> nbrs_;
  std::vector<std::optional<Rel>> rel_;  ///< [switch] its position once placed
  std::map<Rel, SwitchIndex> at_;
  std::size_t placed_ = 0;
};

}  // namespace

std::string coord_text(const TorusCoord& c) {
  return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]) + ")";
}

Result<TorusPlacement> place_switches(const Topology& topo, const SwitchGraph& graph, const TorusGeometry& g) {
  if (graph.num_switches() > g.switches()) {
    return make_error(ErrorCode::kDeclined, "the fabric has " + std::to_string(graph.num_switches()) +
                                                " switches, more than the " + std::to_string(g.switches()) +
                                                " positions of the configured torus");
  }
  std::string why;
  for (std::size_t i = 0; i < g.seeds.size(); ++i) {
    Placer placer(topo, graph, g);
    Status st = placer.seed(g.seeds[i]);
    if (st) st = placer.grow();
    if (st) return placer.finish(g.seeds[i], i);
    // The next seed (next_seed) may still work: one whose switch failed is what it is there for.
    why += (why.empty() ? "" : "; ") + ("seed " + std::to_string(i + 1) + ": " + st.error().message);
  }
  return make_error(ErrorCode::kDeclined, why.empty() ? "no seed configured" : why);
}

}  // namespace smd
