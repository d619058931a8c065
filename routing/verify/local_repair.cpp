#include "routing/verify/local_repair.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "routing/verify/channel_deps.h"
#include "routing/verify/updown_check.h"

namespace smd {

namespace {

Error declined(const std::string& why) { return make_error(ErrorCode::kDeclined, "local repair: " + why); }

bool switches_connected(const SwitchGraph& graph) {
  const std::vector<std::uint32_t> comp = switch_components(graph);
  return std::all_of(comp.begin(), comp.end(), [](std::uint32_t c) { return c == 0; });
}

bool delivers(RouteClass c) { return c == RouteClass::kDown || c == RouteClass::kUpDown || c == RouteClass::kIllegal; }
bool legal(RouteClass c) { return c == RouteClass::kDown || c == RouteClass::kUpDown; }

// A next hop a broken switch could take; smaller is better: fewer hops, then its old port, then the
// least-loaded port, then the lower port number (a deterministic result).
struct Candidate {
  std::uint32_t hops = 0xFFFFFFFFu;
  std::uint8_t changed = 1;
  std::uint32_t load = 0;
  PortNum port = kNoPort;
  RouteClass cls = RouteClass::kBroken;

  auto key() const { return std::make_tuple(hops, changed, load, port); }
  bool found() const { return port != kNoPort; }
};

// Re-routes the broken switches of one LID at a time in the tables `lfts` reads (writes through `entry`).
class LidRepairer {
 public:
  LidRepairer(const SwitchGraph& graph, const LevelOrder& order, std::vector<std::uint32_t>& load)
      : graph_(graph), order_(order), load_(load), best_(graph.num_switches()) {}

  // cls/hops: the classification of the LID with the previous entries (classify_lid_routes), updated to
  // the new routes as switches are decided. entry(s) is switch s's writable LFT entry for the LID.
  // Returns false if a broken switch has no delivering route left.
  template <class Entry>
  bool repair(const LidTarget& dst, bool ca_lid, std::vector<RouteClass>& cls, std::vector<std::uint16_t>& hops,
              Entry&& entry) {
    broken_.clear();
    for (SwitchIndex s = 0; s < cls.size(); ++s) {
      if (cls[s] == RouteClass::kBroken) broken_.push_back(s);
    }
    if (cls[dst.sw] == RouteClass::kBroken) {  // the owner's own switch: its port to the owner, 0 hops
      set(dst.sw, dst.port, ca_lid, entry);
      cls[dst.sw] = RouteClass::kDown;
      hops[dst.sw] = 0;
    }
    // Legal routes first, so that no switch with CAs takes an illegal one while a legal one exists.
    for (const bool legal_only : {true, false}) {
      heap_.clear();
      for (SwitchIndex s : broken_) {
        if (cls[s] != RouteClass::kBroken) continue;
        best_[s] = Candidate{};
        for (const auto& link : graph_.links(s)) consider(s, link.port, link.peer, legal_only, cls, hops, entry);
        if (best_[s].found()) push(s);
      }
      while (!heap_.empty()) {
        std::pop_heap(heap_.begin(), heap_.end(), later);
        const auto [key, s] = heap_.back();
        heap_.pop_back();
        if (cls[s] != RouteClass::kBroken || key != best_[s].key()) continue;  // decided, or a stale entry
        const Candidate c = best_[s];
        set(s, c.port, ca_lid, entry);
        cls[s] = c.cls;
        hops[s] = static_cast<std::uint16_t>(c.hops);
        for (const auto& link : graph_.links(s)) {
          if (cls[link.peer] != RouteClass::kBroken) continue;
          const Candidate before = best_[link.peer];
          consider(link.peer, graph_.peer_port(s, link.port), s, legal_only, cls, hops, entry);
          if (best_[link.peer].key() != before.key()) push(link.peer);
        }
      }
    }
    for (SwitchIndex s : broken_) {
      if (cls[s] == RouteClass::kBroken) return false;
    }
    return true;
  }

 private:
  using HeapItem = std::pair<std::tuple<std::uint32_t, std::uint8_t, std::uint32_t, PortNum>, SwitchIndex>;
  static bool later(const HeapItem& a, const HeapItem& b) { return a > b; }

  void push(SwitchIndex s) {
    heap_.emplace_back(best_[s].key(), s);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }

  // Switch s going out of `port` to switch `via`, whose route is already decided.
  template <class Entry>
  void consider(SwitchIndex s, PortNum port, SwitchIndex via, bool legal_only, const std::vector<RouteClass>& cls,
                const std::vector<std::uint16_t>& hops, Entry& entry) {
    if (!delivers(cls[via])) return;
    const RouteClass result = extend_route(order_, s, via, cls[via]);
    if (legal_only && !legal(result)) return;
    Candidate c;
    c.hops = static_cast<std::uint32_t>(hops[via]) + 1;
    c.changed = entry(s) == port ? 0 : 1;
    c.load = load_[graph_.slot(s, port)];
    c.port = port;
    c.cls = result;
    if (!best_[s].found() || c.key() < best_[s].key()) best_[s] = c;
  }

  template <class Entry>
  void set(SwitchIndex s, PortNum port, bool ca_lid, Entry& entry) {
    PortNum& e = entry(s);
    if (e == port) return;
    if (ca_lid) {
      if (e <= graph_.num_ports(s)) --load_[graph_.slot(s, e)];
      ++load_[graph_.slot(s, port)];
    }
    e = port;
  }

  const SwitchGraph& graph_;
  const LevelOrder& order_;
  std::vector<std::uint32_t>& load_;
  std::vector<Candidate> best_;
  std::vector<SwitchIndex> broken_;
  std::vector<HeapItem> heap_;
};

// Whether `proof` (of the previous tables on `before`) may stand in for classifying the LIDs it covers on
// `now`: the same switch order, the switches `now` lost left out (a route's verdict compares ranks only).
bool proof_order_holds(const RouteProof& proof, const Topology& now, const SwitchGraph& graph,
                       const LevelOrder& order) {
  const std::vector<std::uint64_t> now_order = order_guids(now, graph, order);
  std::size_t i = 0;
  for (const std::uint64_t guid : proof.order) {
    const auto node = now.find(guid);
    if (!node || !now.node(*node).is_switch()) continue;  // lost since
    if (i == now_order.size() || now_order[i] != guid) return false;
    ++i;
  }
  return i == now_order.size();
}

// What a LID's verdict with the previous entries needs on `now`.
enum Recheck : std::uint8_t {
  kKeep = 0,      // the proof's: its routes are the switch paths the proof was made on
  kUnproved = 1,  // no usable proof, not proved, or delivered somewhere else now: classify
  kCrosses = 2,   // some switch's entry leads into a channel `now` lost or changed: classify; likely broken
};

// [LID] Recheck. `out` holds the previous entries.
std::vector<std::uint8_t> lids_to_recheck(const Topology& before, const Topology& now, const SwitchGraph& graph,
                                          const LevelOrder& order, const std::vector<LidTarget>& targets,
                                          const RoutingTables& out, const RouteProof* proof) {
  std::vector<std::uint8_t> recheck(targets.size(), kUnproved);
  if (!proof || !proof_order_holds(*proof, now, graph, order)) return recheck;
  for (std::size_t lid = 1; lid < targets.size(); ++lid) {
    const LidTarget& dst = targets[lid];
    if (dst.sw == kNoSwitch || lid >= proof->verdict.size()) continue;
    const bool proved = (proof->verdict[lid] & kRouteProved) != 0 &&
                        proof->dst_switch[lid] == now.node(graph.node(dst.sw)).guid && proof->dst_port[lid] == dst.port;
    recheck[lid] = proved ? kKeep : kUnproved;
  }
  std::vector<std::uint8_t> changed;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    const Node& node = now.node(graph.node(s));
    const Node& old = before.node(*before.find(node.guid));  // repair_locally checked it is there
    changed.assign(static_cast<std::size_t>(graph.num_ports(s)) + 1, 0);
    bool any = false;
    for (PortNum p = 1; p <= graph.num_ports(s); ++p) {
      const Port& was = p <= old.num_ports ? old.ports[p] : Port{};
      const Port& is = node.ports[p];
      const bool same =
          was.connected() == is.connected() &&
          (!is.connected() || (before.node(was.peer).guid == now.node(is.peer).guid && was.peer_port == is.peer_port));
      changed[p] = same ? 0 : 1;
      any = any || !same;
    }
    if (!any) continue;
    const std::vector<PortNum>& e = out.lft[graph.node(s)].entries();
    for (std::size_t lid = 1; lid < targets.size(); ++lid) {
      if (e[lid] < changed.size() && changed[e[lid]] && recheck[lid] == kKeep) recheck[lid] = kCrosses;
    }
  }
  return recheck;
}

// The previous LFTs on `now`'s node indices, and its CA order. Declines when a switch has no previous
// LFT, its LinearFDBTop no longer fits the LIDs, or the switches fell apart into islands.
Result<RoutingTables> carry_over(const Topology& before, const RoutingTables& previous, const Topology& now,
                                 const SwitchGraph& graph, const LidMap& lids) {
  RoutingTables out;
  out.engine = previous.engine;
  out.lft.resize(now.size());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    const Node& node = now.node(graph.node(s));
    const std::optional<NodeIndex> old = before.find(node.guid);
    if (!old || *old >= previous.lft.size() || !before.node(*old).is_switch()) {
      return declined("switch " + describe_node(node) + " has no previous LFT");
    }
    Lft& lft = out.lft[graph.node(s)] = previous.lft[*old];
    if (lft.top() < lids.max_lid() || (node.lft_cap != 0 && lft.top() >= node.lft_cap)) {
      return declined("switch " + describe_node(node) + ": previous LinearFDBTop does not fit the LIDs now");
    }
  }
  for (NodeIndex ca : previous.ca_order) {
    if (ca >= before.size()) continue;
    if (const auto now_ca = now.find(before.node(ca).guid)) out.ca_order.push_back(*now_ca);
  }
  if (!switches_connected(graph)) return declined("the switches fall apart into islands");
  return out;
}

// [LID] 1 when a CA port owns the LID: its routes count as load and must be up*/down* legal.
std::vector<std::uint8_t> ca_lid_flags(const Topology& now, const LidMap& lids) {
  std::vector<std::uint8_t> ca_lid(static_cast<std::size_t>(lids.max_lid()) + 1, 0);
  for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
    if (const auto o = lids.owner(lid)) ca_lid[lid] = now.node(o->node).is_switch() ? 0 : 1;
  }
  return ca_lid;
}

// CA LIDs routed out of every (switch, port), the tie-break that spreads re-routed LIDs.
std::vector<std::uint32_t> ca_port_load(const SwitchGraph& graph, const RoutingTables& out,
                                        const std::vector<std::uint8_t>& ca_lid) {
  std::vector<std::uint32_t> load(graph.num_slots(), 0);
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    const std::vector<PortNum>& e = out.lft[graph.node(s)].entries();
    const PortNum ports = graph.num_ports(s);
    const std::uint32_t base = graph.port_base(s);
    for (std::size_t lid = 1; lid < ca_lid.size(); ++lid) {
      if (ca_lid[lid] && e[lid] <= ports) ++load[base + e[lid]];
    }
  }
  return load;
}

// The per-route condition proves nothing about valley routes to switch LIDs: build the channel-dependency
// graph of host-injected traffic (every route delivers: classified before) and decline on a cycle in it,
// the graph verify_tables checks for ca_deadlock_free.
Status check_valley_routes(const SwitchGraph& graph, const SwitchLfts& lfts, const std::vector<LidTarget>& targets,
                           const std::vector<std::uint8_t>& ca_lid) {
  const std::size_t n = graph.num_switches();
  std::vector<SwitchIndex> sources;
  std::vector<std::uint8_t> is_source(n, 0);
  for (std::size_t lid = 1; lid < ca_lid.size(); ++lid) {
    const SwitchIndex s = targets[lid].sw;
    if (ca_lid[lid] && s != kNoSwitch) is_source[s] = 1;
  }
  for (SwitchIndex s = 0; s < n; ++s) {
    if (is_source[s]) sources.push_back(s);
  }
  const DepGraph deps = source_dependencies(graph, lfts, targets, sources);
  if (find_cdg_cycle(graph, deps, slot_switches(graph))) {
    return declined("routes from switches with CAs to switch LIDs close a channel-dependency cycle");
  }
  return Ok{};
}

// Re-routes the LIDs whose routes no longer all deliver, one at a time, in the tables `lfts` reads, and
// checks each result with the same classification the verdicts come from.
class LidRerouter {
 public:
  LidRerouter(const Topology& now, const SwitchGraph& graph, const LevelOrder& order, const SwitchLfts& lfts,
              RoutingTables& out, std::vector<std::uint32_t>& load)
      : now_(now), graph_(graph), order_(order), lfts_(lfts), out_(out), repairer_(graph, order, load),
        was_(graph.num_switches()) {}

  // The classification of `lid`'s routes with the entries as they are (cls/hops keep the classes).
  LidRouteCheck classify(Lid lid, const LidTarget& dst) {
    return classify_lid_routes(graph_, order_, lfts_, lid, dst, cls_, hops_, stack_);
  }

  // Routes `lid` again where it is broken; `classified`: classify() ran for it already. Returns the new
  // routes' check, with valley routes to a switch LID (`ca` false) flagged in *valleys; declines when a
  // switch keeps no route, or a switch with CAs no up*/down* legal one.
  Result<LidRouteCheck> reroute(Lid lid, const LidTarget& dst, bool ca, bool classified, bool& valleys,
                                RepairStats& stats) {
    const std::size_t n = graph_.num_switches();
    if (!classified) classify(lid, dst);  // the repairer's start
    for (SwitchIndex s = 0; s < n; ++s) was_[s] = lfts_.out_port(s, lid);
    auto entry = [&](SwitchIndex s) -> PortNum& { return out_.lft[graph_.node(s)].mutable_entries()[lid]; };
    if (!repairer_.repair(dst, ca, cls_, hops_, entry)) {
      return declined("LID " + std::to_string(lid) + " has switches with no route left");
    }
    // What changed is verified by the same classification, from the tables as they now are.
    LidRouteCheck check = classify(lid, dst);
    if (check.delivered && !check.ca_legal) {
      // A switch that had no legal route left (a spine whose only link into the LID's pod now leads up
      // again) makes the routes through it illegal: route every switch that is not legal again, so that
      // the others leave it out where a legal route exists.
      for (RouteClass& c : cls_) {
        if (c == RouteClass::kIllegal) c = RouteClass::kBroken;
      }
      if (!repairer_.repair(dst, ca, cls_, hops_, entry)) {
        return declined("LID " + std::to_string(lid) + " has switches with no route left");
      }
      check = classify(lid, dst);
    }
    if (check.delivered && !check.ca_legal && !ca) {
      // A leaf that lost its cable to a middle switch has no legal route to that switch's own LID: it
      // goes down into a valley and up again. Host-to-host routes are still all legal.
      valleys = true;
    } else if (!check.delivered || !check.ca_legal) {
      SwitchIndex bad = check.first_broken;
      for (SwitchIndex s = 0; bad == kNoSwitch && s < n; ++s) {
        if (order_.has_ca[s] && !legal(cls_[s])) bad = s;
      }
      return declined("no up*/down* legal route to LID " + std::to_string(lid) + " is left from switch " +
                      describe_node(now_.node(graph_.node(bad))) + (check.delivered ? "" : " (or none at all)"));
    }
    std::size_t changed = 0;
    for (SwitchIndex s = 0; s < n; ++s) changed += lfts_.out_port(s, lid) != was_[s] ? 1 : 0;
    stats.entries_repaired += changed;
    stats.entries_kept += n - changed;
    ++stats.lids_touched;
    return check;
  }

 private:
  const Topology& now_;
  const SwitchGraph& graph_;
  const LevelOrder& order_;
  const SwitchLfts& lfts_;
  RoutingTables& out_;
  LidRepairer repairer_;
  std::vector<RouteClass> cls_;
  std::vector<std::uint16_t> hops_;
  std::vector<SwitchIndex> stack_;
  std::vector<PortNum> was_;  // [switch] the LID's entry before the repair
};

}  // namespace

Result<RoutingTables> repair_locally(const Topology& before, const RoutingTables& previous, const Topology& now,
                                     const LidMap& lids, RepairStats& stats, const RouteProof* previous_proof,
                                     RouteProof* proof_out) {
  if (previous.layering) return declined("the previous tables are VL-layered");
  if (previous.adaptive) return declined("the previous tables carry adaptive-routing groups");
  const SwitchGraph graph = SwitchGraph::build(now);
  const std::size_t n = graph.num_switches();
  auto carried = carry_over(before, previous, now, graph, lids);
  if (!carried) return carried.error();
  RoutingTables out = std::move(carried.value());

  const LevelOrder order = LevelOrder::build(now, graph);
  const std::vector<LidTarget> targets = lid_targets(now, graph, lids);
  const std::vector<std::uint8_t> ca_lid = ca_lid_flags(now, lids);
  std::vector<std::uint32_t> load = ca_port_load(graph, out, ca_lid);

  const SwitchLfts lfts(graph, out);  // borrows out.lft; entries are written in place, never resized
  // Every LID's verdict with the previous entries: from the proof where it still holds, else classified,
  // in parallel while nothing is written yet, except the LIDs that cross a lost channel: those are
  // classified in the loop below, where the repairer starts from their classes.
  const std::vector<std::uint8_t> recheck = lids_to_recheck(before, now, graph, order, targets, out, previous_proof);
  RouteProof proof = start_proof(now, graph, order, targets);
  std::vector<Lid> to_classify;
  for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
    if (!lids.owner(lid) || targets[lid].sw == kNoSwitch) continue;
    if (recheck[lid] == kUnproved) to_classify.push_back(lid);
    if (recheck[lid] == kKeep) proof.verdict[lid] = previous_proof->verdict[lid];
  }
  prove_lids(graph, order, lfts, targets, to_classify, proof.verdict);
  stats.lids_proved = to_classify.size();

  LidRerouter rerouter(now, graph, order, lfts, out, load);
  bool all_legal = true;
  bool switch_lid_valleys = false;  // a route from a switch with CAs to a switch LID turns down -> up
  for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
    const LidTarget& dst = targets[lid];
    if (!lids.owner(lid) || dst.sw == kNoSwitch) continue;
    LidRouteCheck check;
    const bool classified = recheck[lid] == kCrosses;  // the rerouter holds this LID's classes
    if (classified) {
      check = rerouter.classify(lid, dst);
      proof.verdict[lid] = verdict_bits(check);
      ++stats.lids_proved;
    } else {
      const std::uint8_t v = proof.verdict[lid];
      check = LidRouteCheck{(v & kRouteDelivers) != 0, (v & kRouteCaLegal) != 0, (v & kRouteLegal) != 0, kNoSwitch};
    }
    if (!check.ca_legal && check.delivered && !ca_lid[lid]) {
      switch_lid_valleys = true;  // an earlier repair's valley: the cycle check below is the proof
    } else if (!check.ca_legal && check.delivered) {
      return declined("routes to LID " + std::to_string(lid) + " from switches with CAs are not up*/down* legal");
    }
    if (!check.delivered) {
      auto rerouted = rerouter.reroute(lid, dst, ca_lid[lid] != 0, classified, switch_lid_valleys, stats);
      if (!rerouted) return rerouted.error();
      check = rerouted.value();
      proof.verdict[lid] = verdict_bits(check);
    } else {
      stats.entries_kept += n;
    }
    all_legal = all_legal && check.legal;
  }
  if (switch_lid_valleys) {
    if (auto acyclic = check_valley_routes(graph, lfts, targets, ca_lid); !acyclic) return acyclic.error();
    stats.verified_fully = true;
  }
  out.deadlock_free = all_legal;
  if (proof_out) *proof_out = std::move(proof);
  return out;
}

}  // namespace smd
