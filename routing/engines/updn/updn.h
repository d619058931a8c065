// updn: up*/down* unicast routing (Schroeder et al., "Autonet: a high-speed, self-configuring local
// area network using point-to-point links", 1991). Deadlock free on ANY connected topology with one VL,
// so it is the general engine of the chain: tori, meshes and random graphs as well as trees.
#pragma once

#include "routing/engines/updn/updn_options.h"
#include "routing/engines/engine.h"
#include "routing/engines/rooted_engine.h"

namespace smd {

/// Switches are ranked by BFS distance from the roots (UpdnOptions::roots, or chosen by
/// choose_updn_roots(): the spines of a fat tree, else the centre switch). A cable goes "up" towards the
/// lower (rank, GUID), a strict order, and no route turns from down to up.
///   - CA LIDs: for each destination switch, shortest legal paths from every switch (DestPaths); each LID
///     is then routed with UpDownBalancer, which counts only the CA flows that really reach a switch, so
///     a fat tree is spread over all its spines (d-mod-k like) rather than funnelled. LIDs are taken in
///     CA order = (attached switch index, port), LMC LIDs in later rounds with rotated ties; with
///     UpdnOptions::guid_routing_order the listed CA ports come first, in list order (as OpenSM's updn).
///   - UpdnOptions::ids replace switch GUIDs where the order breaks ties of rank (OpenSM's ids_guid_file).
///   - switch LIDs: legal paths where they exist; between local maxima of the order (two spines) a
///     single down->up turn at one valley switch per component (route_switch_lid_via_valley).
/// RoutingTables::deadlock_free = true; ca_order = the CA order above; notes name listed GUIDs the fabric
/// lacks (skipped, not fatal).
/// Errors: kInvalidInput for an empty LidMap, a root GUID that is not a switch of the fabric, or
/// configured roots that leave some switch without a legal path to a CA LID of its own component.
/// Automatic roots never fail: if the spines chosen for a fat-tree-like graph leave a CA LID unreachable,
/// the engine re-ranks from the centre switch, which reaches every switch.
/// Cost O(destination switches * cables + LIDs * switches): 2,560 switches and 32k LIDs in about a second.
class UpDownEngine : public SectionEngine<UpdnOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
