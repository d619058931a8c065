// what_if_drain and its parts: see drain_plan.h for what each figure means.
#include "routing/whatif/drain_plan.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "routing/isolation/routed_topology.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "routing/partitions/partition_plan.h"
#include "routing/verify/verify.h"
#include "routing/whatif/fabric_loss.h"

namespace smd {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// CA ports with a base LID, in LID order: the endpoints pairs are counted over.
std::vector<DrainEndpoint> ca_endpoints(const Topology& topo, const LidMap& lids) {
  std::vector<DrainEndpoint> out;
  for (const LidMap::Entry& e : lids.entries()) {
    if (e.owner.node >= topo.size() || topo.node(e.owner.node).is_switch()) continue;
    out.push_back(DrainEndpoint{e.owner.node, e.owner.port, e.base});
  }
  return out;
}

/// Which endpoint pairs the tables deliver on one fabric: row[i] is the switch row endpoint i sends from
/// (-1 when its port has no switch), bit (row, d) says whether some LID of endpoint d is delivered from it.
class PairReach {
 public:
  PairReach(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
            const std::vector<DrainEndpoint>& eps)
      : words_((eps.size() + 63) / 64), row_of_(eps.size(), -1) {
    const SwitchGraph graph = SwitchGraph::build(topo);
    const SwitchLfts lfts(graph, tables);
    std::vector<int> row_of_switch(graph.num_switches(), -1);
    std::vector<SwitchIndex> sources;
    std::vector<LidTarget> target(eps.size());
    for (std::size_t i = 0; i < eps.size(); ++i) {
      target[i] = port_target(topo, graph, eps[i].node, eps[i].port);
      const SwitchIndex s = target[i].sw;
      if (s == kNoSwitch) continue;
      if (row_of_switch[s] < 0) {
        row_of_switch[s] = static_cast<int>(sources.size());
        sources.push_back(s);
      }
      row_of_[i] = row_of_switch[s];
    }
    bits_.assign(sources.size() * words_, 0);
    for (std::size_t d = 0; d < eps.size(); ++d) {
      if (target[d].sw == kNoSwitch) continue;
      const unsigned lid_count = 1u << lids.lmc_of(eps[d].node, eps[d].port);
      for (std::size_t r = 0; r < sources.size(); ++r) {
        for (unsigned k = 0; k < lid_count; ++k) {
          const Lid lid = static_cast<Lid>(eps[d].lid + k);
          const LftWalkEnd end = walk_lft(
              graph, sources[r], target[d], [&](SwitchIndex s) { return lfts.out_port(s, lid); },
              [](SwitchIndex, PortNum) {});
          if (end.delivered()) {
            bits_[r * words_ + d / 64] |= std::uint64_t{1} << (d % 64);
            break;
          }
        }
      }
    }
  }

  /// Packets from endpoint `src` to endpoint `dst` arrive (for some LID of dst).
  bool reaches(std::size_t src, std::size_t dst) const {
    const int r = row_of_[src];
    return r >= 0 && (bits_[static_cast<std::size_t>(r) * words_ + dst / 64] >> (dst % 64) & 1u);
  }

 private:
  std::size_t words_;
  std::vector<int> row_of_;
  std::vector<std::uint64_t> bits_;
};

/// Per endpoint and partition: 0 not a member, bit 0 limited, bit 1 full (IBA 10.9.1, the P_Key's top bit).
struct PartitionMembers {
  std::vector<PartitionImpact> impacts;  // one per partition of the spec, policy order
  std::vector<std::uint8_t> member;      // [endpoint * partitions + p]

  bool share(std::size_t a, std::size_t b, std::size_t p) const {
    const std::size_t n = impacts.size();
    const std::uint8_t ma = member[a * n + p];
    const std::uint8_t mb = member[b * n + p];
    return ma != 0 && mb != 0 && ((ma | mb) & 2u) != 0;  // limited with limited does not match (10.9.3)
  }
};

PartitionMembers partition_members(const Topology& topo, const PartitionsSpec& spec,
                                   const std::vector<DrainEndpoint>& eps) {
  PartitionMembers out;
  const PartitionPlan plan = plan_partitions(topo, spec, topo.sm_node, topo.sm_port, PartitionCaps{}, nullptr);
  for (const PartitionSpec& ps : spec.partitions) {
    PartitionImpact impact;
    impact.name = ps.name;
    impact.pkey = ps.pkey;
    if (ps.ipoib.enabled) {
      for (std::uint8_t scope : ps.ipoib.scopes) impact.mgids.push_back(ipoib_broadcast_mgid(ps.pkey, scope));
    }
    for (const McastGroupSpec& g : ps.groups) impact.mgids.push_back(g.mgid);
    out.impacts.push_back(std::move(impact));
  }
  const std::size_t n = out.impacts.size();
  out.member.assign(eps.size() * n, 0);
  for (std::size_t i = 0; i < eps.size(); ++i) {
    const Guid guid = topo.node(eps[i].node).ports[eps[i].port].guid;
    for (PKey key : plan.pkeys_of(guid)) {
      for (std::size_t p = 0; p < n; ++p) {
        if ((key & 0x7fff) != out.impacts[p].pkey || (key & 0x7fff) == 0) continue;
        out.member[i * n + p] |= (key & kPKeyFullBit) ? 2u : 1u;
      }
    }
  }
  return out;
}

/// Lost pairs, cut-off ports and partitions into `rep`.
void compare_pairs(const Topology& topo, const std::vector<DrainEndpoint>& eps, const PairReach& before,
                   const PairReach& after, const PartitionMembers* parts, std::size_t listed, DrainReport& rep) {
  std::vector<std::uint8_t> had(eps.size(), 0);  // bit 0: some path before, bit 1: some path after
  std::vector<std::uint64_t> part_lost(parts ? parts->impacts.size() : 0, 0);
  for (std::size_t s = 0; s < eps.size(); ++s) {
    for (std::size_t d = 0; d < eps.size(); ++d) {
      if (s == d) continue;
      const bool b = before.reaches(s, d);
      const bool a = after.reaches(s, d);
      if (b) {
        ++rep.reachable_before;
        had[s] |= 1u;
        had[d] |= 1u;
      }
      if (a) {
        ++rep.reachable_after;
        had[s] |= 2u;
        had[d] |= 2u;
      }
      if (a && !b) ++rep.gained_pairs;
      if (!b || a) continue;
      ++rep.lost_pairs;
      if (rep.first_lost.size() < listed) rep.first_lost.push_back(LostPair{eps[s], eps[d]});
      for (std::size_t p = 0; p < part_lost.size(); ++p) {
        if (parts->share(s, d, p)) ++part_lost[p];
      }
    }
  }
  for (std::size_t i = 0; i < eps.size(); ++i) {
    if (had[i] != 1u) continue;
    ++rep.cut_off;
    if (rep.first_cut_off.size() < listed) rep.first_cut_off.push_back(eps[i]);
    if (eps[i].node == topo.sm_node && eps[i].port == topo.sm_port) rep.sm_cut_off = true;
  }
  for (std::size_t p = 0; p < part_lost.size(); ++p) {
    if (part_lost[p] == 0) continue;
    PartitionImpact impact = parts->impacts[p];
    impact.lost_pairs = part_lost[p];
    rep.partitions.push_back(std::move(impact));
  }
}

void compare_lfts(const Topology& topo, const RoutingTables& before, const RoutingTables& after, std::size_t listed,
                  DrainReport& rep) {
  static const Lft kNone;
  std::vector<SwitchBlockChange> changed;
  for (NodeIndex n : topo.switches()) {
    const Lft& b = n < before.lft.size() ? before.lft[n] : kNone;
    const Lft& a = n < after.lft.size() ? after.lft[n] : kNone;
    const unsigned blocks = changed_lft_blocks(b, a);
    if (blocks == 0) continue;
    rep.lft_blocks += blocks;
    changed.push_back(SwitchBlockChange{n, blocks, b.top(), a.top()});
  }
  rep.switches_changed = changed.size();
  std::stable_sort(changed.begin(), changed.end(),
                   [](const SwitchBlockChange& x, const SwitchBlockChange& y) { return x.blocks > y.blocks; });
  if (changed.size() > listed) changed.resize(listed);
  rep.most_changed = std::move(changed);
}

/// The tables after, chosen by the daemon's own decision (fabric_loss.h), with how they were made in `rep`.
Result<Rerouted> route_drained(const Topology& topo, const Topology& drained, const LidMap& lids,
                               const RoutingTables& before, const DrainOptions& options, DrainReport& rep) {
  RerouteOptions reroute;
  reroute.chain = options.chain;
  reroute.routing = options.routing;
  if (options.extra_check) {  // the drained fabric keeps the indexes and LIDs of `topo`
    reroute.extra_check = [&options](const Topology& t, const LidMap&, const RoutingTables& tables) {
      return options.extra_check(t, tables);
    };
  }
  reroute.minimal_repair = options.minimal_repair;
  auto routed = reroute_after_loss(topo, drained, lids, before, reroute);
  if (!routed) return routed.error();
  rep.declined = std::move(routed->declined);
  rep.warning = std::move(routed->warning);
  rep.entries_kept = routed->entries_kept;
  rep.entries_repaired = routed->entries_repaired;
  rep.made_by = std::move(routed->made_by);
  return routed;
}

}  // namespace

Topology drained_topology(const Topology& topo, std::span<const DrainPart> parts, std::size_t& cables) {
  // The daemon's routed_topology takes the same ends: a switch as port 0, a cable as the end named. A drain
  // is asked for whatever it cuts off: the report says what.
  std::vector<CableEnd> ends;
  ends.reserve(parts.size());
  for (const DrainPart& part : parts) {
    ends.push_back({part.node, part.kind == DrainPart::Kind::kCable ? part.port : PortNum{0}});
  }
  const RoutedTopology routed = routed_topology(topo, ends, {});
  cables = routed.drained.size();
  return routed.topo;
}

std::vector<std::string> drain_overlaps(std::span<const DrainPart> parts) {
  std::vector<std::string> out;
  for (const DrainPart& cable : parts) {
    if (cable.kind != DrainPart::Kind::kCable) continue;
    const auto sw = std::find_if(parts.begin(), parts.end(), [&](const DrainPart& p) {
      return p.kind == DrainPart::Kind::kSwitch && (p.node == cable.node || p.node == cable.peer);
    });
    if (sw != parts.end()) out.push_back("'" + cable.text + "' is a cable of switch '" + sw->text + "' (drained with it)");
  }
  return out;
}

unsigned changed_lft_blocks(const Lft& before, const Lft& after) {
  const unsigned blocks = std::max(before.num_blocks(), after.num_blocks());
  unsigned changed = 0;
  for (unsigned b = 0; b < blocks; ++b) {
    if (before.block(b) != after.block(b)) ++changed;
  }
  return changed;
}

Result<DrainReport> what_if_drain(const Topology& topo, const LidMap& lids, const RoutingTables& before,
                                  std::span<const DrainPart> parts, const DrainOptions& options) {
  for (NodeIndex n : topo.switches()) {
    if (n >= before.lft.size()) {
      return make_error(ErrorCode::kInvalidInput,
                        "what-if drain: the tables before have no LFT for " + describe_node(topo.node(n)));
    }
  }
  DrainReport rep;
  rep.parts.assign(parts.begin(), parts.end());
  rep.overlaps = drain_overlaps(parts);
  const Topology drained = drained_topology(topo, parts, rep.cables_drained);

  auto start = Clock::now();
  auto routed = route_drained(topo, drained, lids, before, options, rep);
  rep.route_ms = ms_since(start);
  if (!routed) return routed.error().with_context("drained fabric");
  rep.engine_after = routed->tables.engine;

  start = Clock::now();
  auto q_before = compute_quality(topo, lids, before, options.quality, options.verified_before);
  if (!q_before) return q_before.error().with_context("before");
  auto q_after = compute_quality(drained, lids, routed->tables, options.quality, &routed->verified);
  if (!q_after) return q_after.error().with_context("drained fabric");
  rep.quality_ms = ms_since(start);
  rep.quality_before = std::move(q_before).value();
  rep.quality_after = std::move(q_after).value();
  rep.deadlock_free_before = rep.quality_before.deadlock_free;
  rep.ca_deadlock_free_before = rep.quality_before.ca_deadlock_free;
  rep.deadlock_free_after = routed->verified.deadlock_free;
  rep.ca_deadlock_free_after = routed->verified.ca_deadlock_free;

  start = Clock::now();
  const std::vector<DrainEndpoint> eps = ca_endpoints(topo, lids);
  rep.endpoints = eps.size();
  const PairReach reach_before(topo, lids, before, eps);
  const PairReach reach_after(drained, lids, routed->tables, eps);
  std::optional<PartitionMembers> members;
  if (options.partitions) members = partition_members(topo, *options.partitions, eps);
  compare_pairs(topo, eps, reach_before, reach_after, members ? &*members : nullptr, options.listed, rep);
  compare_lfts(topo, before, routed->tables, options.listed, rep);
  rep.pairs_ms = ms_since(start);
  rep.tables_after = std::move(routed->tables);
  return rep;
}

}  // namespace smd
