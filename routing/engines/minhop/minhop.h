// minhop: shortest-path unicast routing with per-port balancing, the engine every fabric can fall back
// to. Not deadlock free on fabrics with cycles (torus, random graphs): it promises nothing about the
// channel-dependency graph, so RoutingTables::deadlock_free is false.
#pragma once

#include <span>

#include "routing/engines/common/balancing_ports.h"
#include "routing/engines/engine.h"
#include "routing/engines/minhop/minhop_options.h"
#include "routing/model/hop_table.h"

namespace smd {

/// For every switch s and every LID d in the LidMap:
///   - d is s's own LID -> port 0; d belongs to a CA port cabled to s -> the port facing it;
///   - otherwise, among the ports of s whose neighbour switch is one hop closer to d's switch (minimum
///     hop counts from HopTable), the one with the fewest LIDs routed through it so far; ties go to the
///     lowest port number. LIDs are visited in increasing order, so the result is deterministic and the
///     2^LMC LIDs of one port spread over different equal-cost ports; with guid_routing_order, in the
///     order destination_order() gives (the listed ports' LIDs first, as OpenSM's minhop).
///   - with routing.minhop's balancing inputs (routing/engines/common/balancing_ports.h): "closer" counts hop
///     weights (hop_weights_file), ties go to the first port in the switch's search order
///     (port_search_ordering_file), routes out of an ignored port are not counted (port_prof_ignore_file),
///     nor routes to switch LIDs unless port_profile_switch_nodes (smd's default counts them); port_shifting
///     starts the search for the least-loaded port at (the group's routes / its ports) instead of the first,
///     scatter_ports takes a random one of the least loaded, seeded by the option and the switch GUID (the
///     same seed gives the same tables);
///   - d unreachable from s (other component, uncabled CA port, unassigned) -> kNoPort.
/// Every LFT covers 0..max LID. Work is O(S * (S * ports + LIDs)) and runs per switch on all threads.
/// Listed GUIDs that name no port are skipped and named in RoutingTables::notes.
class MinHopEngine : public SectionEngine<MinhopOptions> {
 public:
  using SectionEngine::SectionEngine;
  /// Never declines; errors only for an empty LidMap (kInvalidInput: nothing to route).
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

/// The balancing inputs fill_minhop_tables applies; the defaults are plain minhop.
struct MinhopBalancing {
  const BalancingPorts* ports = nullptr;       ///< resolved files, null = none
  const WeightedHopTable* weighted = nullptr;  ///< hop weights' distances, null = the HopTable's hop counts
  bool count_switch_lids = true;               ///< port_profile_switch_nodes
  bool port_shifting = false;                  ///< routing.minhop.port_shifting
  /// routing.minhop.scatter_ports: the random generator's seed per switch index; empty = off.
  std::span<const std::uint64_t> scatter_seed;
};

/// The minhop port choice for all switches given precomputed graph, hops and LID targets, written into
/// `tables.lft` (indexed by NodeIndex, sized by the caller to the topology's node count). LIDs are taken
/// in the order of `order` (each at most once; LIDs not in it stay kNoPort), or 1..max_lid when it is
/// empty. `balancing.weighted` set: `hops` is not read. Exposed so that other engines can reuse the balanced
/// shortest-path fill for switches they do not handle themselves.
void fill_minhop_tables(const SwitchGraph& graph, const HopTable& hops, const std::vector<LidTarget>& targets,
                        Lid max_lid, RoutingTables& tables, std::span<const Lid> order = {},
                        const MinhopBalancing& balancing = {});

}  // namespace smd
