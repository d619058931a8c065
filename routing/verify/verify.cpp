#include "routing/verify/verify.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "routing/base/hex_text.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "routing/verify/channel_deps.h"
#include "routing/verify/hop_vl_deps.h"

namespace smd {
namespace {

// The walk's mark per (switch, LID) byte: a state, and kCaPath as a flag on kGood (packets from some CA pass).
enum WalkMark : std::uint8_t { kUnknown = 0, kOnPath = 1, kGood = 2, kBad = 3, kCaPath = 4 };
// LIDs are verified in blocks of 64 (one LFT block): the block's entries of every switch are copied
// into a small switch-major matrix first, so the walks touch L2-resident data instead of striding
// through S large tables once per LID.
constexpr unsigned kBlock = kLftBlockSize;

std::string where(const Topology& topo, NodeIndex n) {
  const Node& node = topo.node(n);
  return "switch " + hex_text(node.guid, 16) + " \"" + node.description + "\" (DR " + format_dr_path(node.dr_path) +
         ")";
}

struct Problem {
  Lid lid = 0;
  std::string message;
};

/// Read-only inputs shared by all worker threads.
struct Shared {
  const Topology& topo;
  const SwitchGraph& graph;
  std::vector<const Lft*> lft;          // [switch]
  std::vector<LidTarget> targets;       // [LID]
  std::vector<std::uint32_t> comp;      // [switch] component id
  std::vector<std::uint8_t> lid_kind;   // [LID] 0 = unused/switch, 1 = CA LID, 2 = CA base LID
  std::vector<std::uint32_t> ca_ports;  // [switch] CA ports with a LID cabled to it
  std::vector<SwitchIndex> leaves;      // switches with ca_ports > 0
  SwitchLfts lfts;                      // `lft` as raw rows, for the block copies
};

/// Per-thread accumulators, merged after the walks.
struct Partial {
  DepGraph deps;                           // [slot] -> ports of the peer switch it feeds
  DepGraph ca_deps;                        // same, only along routes a CA's packets take (when asked for)
  std::vector<std::uint32_t> ca_lids_out;  // [slot] CA LIDs routed out of it
  std::uint64_t routes = 0;
  std::uint64_t failing = 0;
  std::optional<Problem> first;
  std::size_t lids = 0;
  std::size_t unroutable = 0;
  std::uint64_t pairs = 0;
  std::uint64_t hop_sum = 0;
  unsigned max_hops = 0;
};

/// Walks blocks of LIDs (see kBlock). With `ca_paths` it also marks the switches CA traffic passes and
/// fills Partial::ca_deps: a second pass, needed only when the dependency graph of all routes has a cycle
/// (ca_deps is a subgraph of deps, so an acyclic deps makes it acyclic too). Leaving it out of the first
/// pass saves the marking walk from every leaf and half the dependency writes (about a fifth of
/// verify_tables' time on a 32,768-host fat tree: 0.97 s to 0.79 s, median of three runs).
class Walker {
 public:
  Walker(const Shared& sh, Partial& out, bool ca_paths)
      : sh_(sh),
        out_(out),
        ca_paths_(ca_paths),
        n_(sh.graph.num_switches()),
        nxt_(n_ * kBlock),
        state_(n_ * kBlock),
        depth_(n_ * kBlock) {
    out_.deps.assign(sh.graph.num_slots(), {});
    if (ca_paths_) out_.ca_deps.assign(sh.graph.num_slots(), {});
    out_.ca_lids_out.assign(sh.graph.num_slots(), 0);
  }

  void run(std::size_t first_lid, std::size_t last_lid) {
    for (std::size_t b = first_lid; b < last_lid; b += kBlock) {
      const std::size_t width = std::min<std::size_t>(kBlock, last_lid - b);
      sh_.lfts.copy_block(b, width, nxt_.data());
      std::fill(state_.begin(), state_.end(), kUnknown);
      walk_block(b, width);
      for (std::size_t j = 0; j < width; ++j) finish_lid(static_cast<Lid>(b + j), j);
      record_dependencies(b, width);
    }
  }

 private:
  std::uint8_t& state(SwitchIndex s, std::size_t j) { return state_[s * kBlock + j]; }
  std::uint16_t& depth(SwitchIndex s, std::size_t j) { return depth_[s * kBlock + j]; }

  /// Walk every LID of the block from every switch of its component. Switch-major: the starting switch's
  /// row of the block is read once for all its LIDs (LID-major, each start was a cache line of its own).
  void walk_block(std::size_t b, std::size_t width) {
    for (SwitchIndex s = 0; s < n_; ++s) {
      const std::uint32_t c = sh_.comp[s];
      for (std::size_t j = 0; j < width; ++j) {
        const LidTarget& t = sh_.targets[b + j];
        if (t.sw != kNoSwitch && state(s, j) == kUnknown && sh_.comp[t.sw] == c) walk(s, static_cast<Lid>(b + j), j, t);
      }
    }
  }

  /// After the walks: the CA-path marks and hop statistics of LID `lid` (column j of the block).
  void finish_lid(Lid lid, std::size_t j) {
    const LidTarget t = sh_.targets[lid];
    if (t.sw == kNoSwitch) return;
    ++out_.lids;
    // Mark the switches that packets from CAs pass through on their way to this LID. Only hops the walk
    // above judged kGood are followed, so each one is a kForward of the hop rule: no rule to apply again.
    if (ca_paths_) {
      for (SwitchIndex s : sh_.leaves) {
        for (SwitchIndex x = s; x != t.sw && state(x, j) == kGood;) {
          state(x, j) |= kCaPath;
          x = sh_.graph.peer_switch(x, nxt_[x * kBlock + j]);
        }
      }
    }
    if (sh_.lid_kind[lid] != 2) return;
    for (SwitchIndex s : sh_.leaves) {
      if ((state(s, j) & ~kCaPath) != kGood) continue;
      const std::uint64_t sources = sh_.ca_ports[s] - (s == t.sw ? 1u : 0u);
      if (sources == 0) continue;
      const unsigned hops = depth(s, j) + 2u;  // + injection cable + delivery cable
      out_.pairs += sources;
      out_.hop_sum += sources * hops;
      out_.max_hops = std::max(out_.max_hops, hops);
    }
  }

  /// Channel dependencies and per-port CA LID counts of the verified routes of one block. Switch-major
  /// order keeps the writes inside the current switch's few slots (cache resident) instead of
  /// scattering them over the whole slot array once per LID.
  void record_dependencies(std::size_t b, std::size_t width) {
    if (ca_paths_) {
      record_dependencies<true>(b, width);
    } else {
      record_dependencies<false>(b, width);
    }
  }
  template <bool kCaPaths>
  void record_dependencies(std::size_t b, std::size_t width) {
    // The per-LID skips are data-dependent (whether the next switch delivers), so they are folded into
    // the written bit instead of branched on: mispredicted continues were a third of this loop's time.
    for (SwitchIndex s = 0; s < n_; ++s) {
      const std::uint32_t base = sh_.graph.port_base(s);
      const std::uint8_t* st = &state_[s * kBlock];
      const PortNum* row = &nxt_[s * kBlock];
      for (std::size_t j = 0; j < width; ++j) {
        const SwitchIndex dst = sh_.targets[b + j].sw;
        // kGood implies a LID with a switch in this component (other entries stay kUnknown).
        if ((st[j] & ~kCaPath) != kGood || dst == s) continue;
        const PortNum p = row[j];
        const std::uint32_t slot = base + p;
        out_.ca_lids_out[slot] += sh_.lid_kind[b + j] != 0;
        const SwitchIndex next = sh_.graph.peer_switch(s, p);
        const PortNum q = nxt_[next * kBlock + j];
        // The channel into the LID's own switch delivers the packet: it waits on nothing (bit 0).
        const std::uint64_t bit = std::uint64_t{next != dst} << (q & 63);
        out_.deps[slot][q >> 6] |= bit;
        if constexpr (kCaPaths) out_.ca_deps[slot][q >> 6] |= (st[j] & kCaPath) ? bit : 0;
      }
    }
  }

  void problem(Lid lid, SwitchIndex s, const std::string& what) {
    if (out_.first && out_.first->lid <= lid) return;
    out_.first = Problem{lid, where(sh_.topo, sh_.graph.node(s)) + " LID " + hex_text(lid, 4) + ": " + what};
  }

  /// Why entry p of switch s (not the LID's own switch) loses the packet, for the verifier's message.
  std::string dropped(SwitchIndex s, PortNum p, LftHop hop) const {
    switch (hop) {
      case LftHop::kNoEntry: return "black hole: no LFT entry (0xFF)";
      case LftHop::kPortZero: return "entry is port 0 but the LID is not this switch's";
      case LftHop::kBadPort:
        return "entry " + std::to_string(p) + " exceeds NumPorts " + std::to_string(sh_.graph.num_ports(s));
      case LftHop::kUncabled: return "entry " + std::to_string(p) + " is an uncabled port";
      case LftHop::kWrongPort:
        return "entry " + std::to_string(p) + " leads to CA " +
               hex_text(sh_.topo.node(sh_.graph.peer_node(s, p)).guid, 16) + " which does not own the LID";
      case LftHop::kForward:
      case LftHop::kDelivered:
      case LftHop::kLoop: break;
    }
    return "entry " + std::to_string(p);
  }

  /// Follow LID `lid` from s0 until it is delivered, reaches a switch already verified, or fails.
  void walk(SwitchIndex s0, Lid lid, std::size_t j, const LidTarget& t) {
    path_.clear();
    SwitchIndex s = s0;
    bool good = false;
    bool at_dst = false;
    for (;;) {
      const std::uint8_t st = state(s, j);
      if (st == kGood) {
        good = true;
        break;
      }
      if (st == kBad) break;
      if (st == kOnPath) {
        problem(lid, s, "forwarding loop back to this switch");
        break;
      }
      state(s, j) = kOnPath;
      path_.push_back(s);
      // The hop rule is lft_walk.h's; this walk adds only the memo (a switch already verified for this
      // LID ends the walk) and, at the LID's own switch, names any entry but the delivering one as wrong
      // there: the walk could only loop or drop beyond it.
      const PortNum p = nxt_[s * kBlock + j];
      SwitchIndex next = kNoSwitch;
      const LftHop hop = lft_hop(sh_.graph, s, p, t, next);
      if (hop == LftHop::kDelivered) {
        good = at_dst = true;
        break;
      }
      if (s == t.sw) {
        if (t.port == 0) {
          problem(lid, s, "the switch's own LID is not routed to port 0 (entry " + std::to_string(p) + ")");
        } else {
          problem(lid, s, "LID's CA is on port " + std::to_string(t.port) + " but the entry is " + std::to_string(p));
        }
        break;
      }
      if (hop != LftHop::kForward) {
        problem(lid, s, dropped(s, p, hop));
        break;
      }
      s = next;
    }
    if (!good) {
      for (SwitchIndex x : path_) state(x, j) = kBad;
      out_.failing += path_.size();
      return;
    }
    std::size_t i = path_.size();
    unsigned d = 0;
    if (at_dst) {
      depth(path_.back(), j) = 0;
      state(path_.back(), j) = kGood;
      --i;
    } else {
      d = depth(s, j);
    }
    while (i > 0) {
      --i;
      depth(path_[i], j) = static_cast<std::uint16_t>(++d);
      state(path_[i], j) = kGood;
    }
    out_.routes += path_.size();
  }

  const Shared& sh_;
  Partial& out_;
  bool ca_paths_;
  std::size_t n_;
  std::vector<PortNum> nxt_;
  std::vector<std::uint8_t> state_;
  std::vector<std::uint16_t> depth_;
  std::vector<SwitchIndex> path_;
};

/// Every LID walked by Walkers in parallel chunks; one Partial per chunk.
std::vector<Partial> walk_all(const Shared& sh, bool ca_paths) {
  std::mutex mu;
  std::vector<Partial> partials;
  parallel_for_chunks(sh.targets.size(), 0, [&](std::size_t first, std::size_t last) {
    Partial part;
    Walker walker(sh, part, ca_paths);
    walker.run(first, last);
    std::lock_guard lock(mu);
    partials.push_back(std::move(part));
  });
  return partials;
}

/// The union of the partials' ca_deps (from a walk_all with ca_paths).
DepGraph merge_ca_deps(const std::vector<Partial>& partials, std::size_t slots) {
  DepGraph ca_deps(slots);
  for (const Partial& p : partials) {
    for (std::size_t i = 0; i < slots; ++i) {
      for (unsigned w = 0; w < 4; ++w) ca_deps[i][w] |= p.ca_deps[i][w];
    }
  }
  return ca_deps;
}

/// Kind of every LID: 2 = base LID of a CA port, 1 = other LMC LID of a CA port, 0 = switch/unused.
std::vector<std::uint8_t> classify_lids(const Topology& topo, const LidMap& lids) {
  std::vector<std::uint8_t> kind(static_cast<std::size_t>(lids.max_lid()) + 1, 0);
  for (const auto& e : lids.entries()) {
    if (e.owner.node >= topo.size() || topo.node(e.owner.node).is_switch()) continue;
    const unsigned count = 1u << e.lmc;
    for (unsigned k = 0; k < count && e.base + k < kind.size(); ++k) kind[e.base + k] = k == 0 ? 2 : 1;
  }
  return kind;
}

/// Up-port LID balance: level = BFS distance from the switches that have CAs; an up-port leads to a
/// switch of a higher level.
void up_port_balance(const SwitchGraph& graph, const Shared& sh, const std::vector<std::uint32_t>& ca_lids_out,
                     VerifyReport& rep) {
  const std::size_t n = graph.num_switches();
  constexpr std::uint32_t kNone = kNoDistance;
  const std::vector<std::uint32_t> level = switch_distances(graph, sh.leaves);
  bool any = false;
  for (SwitchIndex s = 0; s < n; ++s) {
    std::uint32_t lo = kNone;
    std::uint32_t hi = 0;
    for (const auto& link : graph.links(s)) {
      if (level[s] == kNone || level[link.peer] == kNone || level[link.peer] <= level[s]) continue;
      const std::uint32_t c = ca_lids_out[graph.slot(s, link.port)];
      lo = std::min(lo, c);
      hi = std::max(hi, c);
      ++rep.up_ports;
      rep.up_port_lids_max = std::max(rep.up_port_lids_max, c);
      rep.up_port_lids_min = any ? std::min(rep.up_port_lids_min, c) : c;
      any = true;
    }
    if (lo != kNone) rep.up_port_lids_worst_spread = std::max(rep.up_port_lids_worst_spread, hi - lo);
  }
}

/// LFT presence, LinearFDBTop and LinearFDBCap of every switch.
Status check_tops(const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  for (NodeIndex n : topo.switches()) {
    if (n >= tables.lft.size()) {
      return make_error(ErrorCode::kInvalidInput, "routing tables have no entry for " + where(topo, n));
    }
    const Lft& lft = tables.lft[n];
    const Node& node = topo.node(n);
    if (lids.max_lid() > 0 && (lft.empty() || lft.top() < lids.max_lid())) {
      return make_error(ErrorCode::kVerifyFailed, where(topo, n) + ": LinearFDBTop " + hex_text(lft.top(), 4) +
                                                      " leaves LIDs up to " + hex_text(lids.max_lid(), 4) +
                                                      " unrouted");
    }
    if (node.lft_cap != 0 && lft.top() >= node.lft_cap) {
      return make_error(ErrorCode::kVerifyFailed, where(topo, n) + ": LinearFDBTop " + hex_text(lft.top(), 4) +
                                                      " exceeds LinearFDBCap " + std::to_string(node.lft_cap));
    }
  }
  return Ok{};
}

std::string describe_cycle(const Topology& topo, const SwitchGraph& graph, const std::vector<SwitchIndex>& slot_switch,
                           const std::vector<std::uint32_t>& cycle) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(cycle.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) {
    const SwitchIndex s = slot_switch[cycle[i]];
    out += (i ? " -> " : "") + hex_text(topo.node(graph.node(s)).guid, 16) + "[" +
           std::to_string(cycle[i] - graph.port_base(s)) + "]";
  }
  if (shown < cycle.size()) out += " -> ... (" + std::to_string(cycle.size()) + " channels)";
  return out;
}

/// Dependencies of one layer: all its routes, and only those from switches with CAs.
struct LayerDeps {
  DepGraph deps;
  DepGraph ca_deps;
  std::uint64_t routes = 0;
};

/// Per-layer channel dependencies of verified tables: every route walked whole from its source switch
/// (the packet's layer is fixed at the source), the dependency of each channel on the next one recorded
/// on the route's layer. The last switch's delivering channel waits on nothing, as in the single-VL graph.
std::vector<LayerDeps> layered_dependencies(const Shared& sh, const VlLayering& layering) {
  const SwitchGraph& graph = sh.graph;
  const std::size_t layers = layering.layers();
  std::mutex mu;
  std::vector<LayerDeps> all(layers);
  for (auto& l : all) {
    l.deps.assign(graph.num_slots(), {});
    l.ca_deps.assign(graph.num_slots(), {});
  }
  parallel_for_chunks(
      graph.num_switches(), 0,
      [&](std::size_t first, std::size_t last) {
        std::vector<LayerDeps> part(layers);
        for (auto& l : part) {
          l.deps.assign(graph.num_slots(), {});
          l.ca_deps.assign(graph.num_slots(), {});
        }
        for (std::size_t s0 = first; s0 < last; ++s0) {
          const auto src = static_cast<SwitchIndex>(s0);
          const bool from_cas = sh.ca_ports[src] > 0;
          for (std::size_t lid = 1; lid < sh.targets.size(); ++lid) {
            const LidTarget& t = sh.targets[lid];
            if (t.sw == kNoSwitch || sh.comp[t.sw] != sh.comp[src]) continue;
            const auto dlid = static_cast<Lid>(lid);
            const std::uint8_t layer =
                std::min<std::uint8_t>(layering.layer_of(graph.node(src), dlid), static_cast<std::uint8_t>(layers - 1));
            LayerDeps& l = part[layer];
            ++l.routes;
            constexpr std::uint32_t kNone = 0xFFFFFFFFu;
            std::uint32_t prev = kNone;
            walk_lft(
                graph, src, t, [&](SwitchIndex x) { return sh.lft[x]->get(dlid); },
                [&](SwitchIndex x, PortNum p) {
                  if (prev != kNone && x != t.sw) {
                    l.deps[prev][p >> 6] |= std::uint64_t{1} << (p & 63);
                    if (from_cas) l.ca_deps[prev][p >> 6] |= std::uint64_t{1} << (p & 63);
                  }
                  prev = x == t.sw ? kNone : graph.slot(x, p);
                });
          }
        }
        std::lock_guard lock(mu);
        for (std::size_t k = 0; k < layers; ++k) {
          all[k].routes += part[k].routes;
          for (std::size_t i = 0; i < graph.num_slots(); ++i) {
            for (unsigned w = 0; w < 4; ++w) {
              all[k].deps[i][w] |= part[k].deps[i][w];
              all[k].ca_deps[i][w] |= part[k].ca_deps[i][w];
            }
          }
        }
      },
      8);
  return all;
}

/// check_layers for tables whose VL changes hop by hop (torus-2QoS): one graph of virtual channels.
Status check_hop_vls(const Topology& topo, const SwitchGraph& graph, const Shared& sh,
                     const std::vector<SwitchIndex>& slot_switch, const RoutingTables& tables,
                     bool require_deadlock_free, VerifyReport& rep) {
  std::vector<bool> from_cas(graph.num_switches());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) from_cas[s] = sh.ca_ports[s] > 0;
  const HopVlDeps deps = hop_vl_dependencies(graph, sh.lft, sh.targets, sh.comp, from_cas, *tables.layering);
  rep.layered = true;
  rep.deadlock_free = deps.deadlock_free;
  rep.ca_deadlock_free = deps.ca_deadlock_free;
  // The VLs some hop takes: the tables may map to more (a turn bit or QoS bit no route sets).
  std::size_t used = 1;
  for (std::size_t v = 0; v < deps.vls.size(); ++v) {
    if (deps.vls[v].hops > 0) used = v + 1;
  }
  rep.layers = used;
  for (std::size_t v = 0; v < used; ++v) {
    const HopVlCdg& c = deps.vls[v];
    rep.layer_cdg.push_back({c.hops, c.channels, c.edges, c.acyclic, c.ca_acyclic});
  }
  if (!deps.deadlock_free && require_deadlock_free) {
    std::string text;
    for (std::size_t i = 0; i < deps.cycle.size() && i < 8; ++i) {
      const auto [vl, slot] = deps.cycle[i];
      const SwitchIndex s = slot_switch[slot];
      text += (i ? " -> " : "") + hex_text(topo.node(graph.node(s)).guid, 16) + "[" +
              std::to_string(slot - graph.port_base(s)) + "] VL " + std::to_string(vl);
    }
    if (deps.cycle.size() > 8) text += " -> ... (" + std::to_string(deps.cycle.size()) + " virtual channels)";
    return make_error(ErrorCode::kVerifyFailed, "engine " + tables.engine +
                                                    " promises deadlock freedom but its per-hop SL2VL leaves a "
                                                    "cycle of virtual channels: " +
                                                    text);
  }
  return Ok{};
}

/// The per-layer half of verify_tables for layered tables: fills rep.layers, rep.layer_cdg and the
/// layered deadlock_free / ca_deadlock_free; with `require_deadlock_free` a cyclic layer is an error
/// naming the layer and one channel on its cycle.
Status check_layers(const Topology& topo, const SwitchGraph& graph, const Shared& sh,
                    const std::vector<SwitchIndex>& slot_switch, const RoutingTables& tables,
                    bool require_deadlock_free, VerifyReport& rep) {
  const VlLayering& layering = *tables.layering;
  if (layering.per_hop()) return check_hop_vls(topo, graph, sh, slot_switch, tables, require_deadlock_free, rep);
  const auto layers = layered_dependencies(sh, layering);
  rep.layered = true;
  rep.layers = layers.size();
  rep.deadlock_free = true;
  rep.ca_deadlock_free = true;
  std::optional<std::pair<std::size_t, std::vector<std::uint32_t>>> first_cycle;
  for (std::size_t k = 0; k < layers.size(); ++k) {
    LayerCdg c;
    c.routes = layers[k].routes;
    std::tie(c.channels, c.edges) = count_dependencies(layers[k].deps);
    auto cycle = find_cdg_cycle(graph, layers[k].deps, slot_switch);
    c.acyclic = !cycle.has_value();
    c.ca_acyclic = c.acyclic || !find_cdg_cycle(graph, layers[k].ca_deps, slot_switch).has_value();
    rep.deadlock_free = rep.deadlock_free && c.acyclic;
    rep.ca_deadlock_free = rep.ca_deadlock_free && c.ca_acyclic;
    if (cycle && !first_cycle) first_cycle.emplace(k, std::move(*cycle));
    rep.layer_cdg.push_back(c);
  }
  if (first_cycle && require_deadlock_free) {
    const std::uint32_t ch = first_cycle->second.front();
    const SwitchIndex s = slot_switch[ch];
    return make_error(ErrorCode::kVerifyFailed,
                      "engine " + tables.engine +
                          " promises deadlock freedom but the channel dependency graph of layer " +
                          std::to_string(first_cycle->first) + " (SL/VL " + std::to_string(first_cycle->first) +
                          ") has a cycle through " + where(topo, graph.node(s)) + " out port " +
                          std::to_string(ch - graph.port_base(s)) + ": " +
                          describe_cycle(topo, graph, slot_switch, first_cycle->second));
  }
  return Ok{};
}

}  // namespace

Result<VerifyReport> verify_tables(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                   bool require_deadlock_free) {
  if (auto st = check_tops(topo, lids, tables); !st) return st.error();
  if (tables.layering && tables.layering->max_lid() < lids.max_lid()) {
    return make_error(ErrorCode::kVerifyFailed, "engine " + tables.engine + ": the VL layering covers LIDs up to " +
                                                    hex_text(tables.layering->max_lid(), 4) + " but LIDs up to " +
                                                    hex_text(lids.max_lid(), 4) + " are in use");
  }
  const SwitchGraph graph = SwitchGraph::build(topo);
  const std::size_t n = graph.num_switches();
  Shared sh{topo, graph, {}, lid_targets(topo, graph, lids), switch_components(graph), classify_lids(topo, lids),
            {},   {},    {}};
  sh.lft.resize(n);
  sh.ca_ports.assign(n, 0);
  for (SwitchIndex s = 0; s < n; ++s) sh.lft[s] = &tables.lft[graph.node(s)];
  sh.lfts = SwitchLfts(sh.lft);
  VerifyReport rep;
  rep.switches = n;
  for (std::size_t lid = 1; lid < sh.targets.size(); ++lid) {
    if (sh.lid_kind[lid] == 2 && sh.targets[lid].sw != kNoSwitch) ++sh.ca_ports[sh.targets[lid].sw];
    if (sh.targets[lid].sw == kNoSwitch && lids.owner(static_cast<Lid>(lid))) ++rep.unroutable_lids;
  }
  for (SwitchIndex s = 0; s < n; ++s) {
    if (sh.ca_ports[s] > 0) sh.leaves.push_back(s);
  }

  std::vector<Partial> partials = walk_all(sh, false);
  Partial all;
  all.deps.assign(graph.num_slots(), {});
  all.ca_lids_out.assign(graph.num_slots(), 0);
  std::uint64_t hop_sum = 0;
  for (Partial& p : partials) {
    rep.lids += p.lids;
    rep.routes += p.routes;
    rep.ca_pairs += p.pairs;
    hop_sum += p.hop_sum;
    rep.max_hops = std::max(rep.max_hops, p.max_hops);
    all.failing += p.failing;
    if (p.first && (!all.first || p.first->lid < all.first->lid)) all.first = std::move(p.first);
    for (std::size_t i = 0; i < all.deps.size(); ++i) {
      for (unsigned w = 0; w < 4; ++w) all.deps[i][w] |= p.deps[i][w];
      all.ca_lids_out[i] += p.ca_lids_out[i];
    }
  }
  if (all.first) {
    return make_error(ErrorCode::kVerifyFailed,
                      all.first->message + " (" + std::to_string(all.failing) + " failing switch/LID routes)");
  }
  rep.mean_hops = rep.ca_pairs ? static_cast<double>(hop_sum) / static_cast<double>(rep.ca_pairs) : 0.0;

  const std::vector<SwitchIndex> slot_switch = slot_switches(graph);
  std::tie(rep.cdg_channels, rep.cdg_edges) = count_dependencies(all.deps);
  const auto cycle = find_cdg_cycle(graph, all.deps, slot_switch);
  rep.deadlock_free = !cycle.has_value();
  rep.single_vl_deadlock_free = rep.deadlock_free;
  if (tables.layering) {
    up_port_balance(graph, sh, all.ca_lids_out, rep);
    if (auto st = check_layers(topo, graph, sh, slot_switch, tables, require_deadlock_free, rep); !st) {
      return st.error();
    }
    return rep;
  }
  // Only a cyclic graph needs the CA-injected subgraph, and its second walk (see Walker).
  rep.ca_deadlock_free =
      rep.deadlock_free ||
      !find_cdg_cycle(graph, merge_ca_deps(walk_all(sh, true), graph.num_slots()), slot_switch).has_value();
  rep.layer_cdg.push_back(
      LayerCdg{rep.routes, rep.cdg_channels, rep.cdg_edges, rep.deadlock_free, rep.ca_deadlock_free});
  if (cycle && require_deadlock_free) {
    return make_error(ErrorCode::kVerifyFailed, "engine " + tables.engine +
                                                    " promises deadlock freedom but the channel dependency graph "
                                                    "has a cycle: " +
                                                    describe_cycle(topo, graph, slot_switch, *cycle));
  }
  up_port_balance(graph, sh, all.ca_lids_out, rep);
  return rep;
}

}  // namespace smd
