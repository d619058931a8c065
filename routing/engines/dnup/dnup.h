// dnup: down*/up* unicast routing as OpenSM 3.3's dnup engine routes: up*/down* (Autonet) with the switches
// ranked from the CAs instead of from roots, for fabrics whose CAs are cabled to more than one tier.
#pragma once

#include "routing/engines/dnup/dnup_options.h"
#include "routing/engines/engine.h"

namespace smd {

/// Switches are ordered by dnup_order (routing/engines/dnup/dnup_rank.h): rank = distance from the nearest
/// switch with a CA, farther is higher; ties by lift, then GUID. A route climbs, then descends, never the
/// reverse, so the tables are deadlock free on one VL like updn's, with no root GUIDs to configure.
///   - CA LIDs: shortest legal paths per destination switch (DestPaths), each LID placed by the
///     UpDownBalancer (least-loaded port among the equal ones, counting the CA flows that reach each
///     switch), in CA order = (attached switch index, port), LMC LIDs in later rounds with rotated ties;
///     DnupOptions::guid_routing_order puts the listed CA ports first, in list order. Where some CA
///     switch cannot climb to every top of the order (dnup_unshared_tops: plateau tops without CAs that
///     do not meet, as on a ring with CAs on every third switch or random graphs; never a fat tree), some
///     pairs have no legal route and valley turns close cycles, so the whole fabric is routed on
///     dnup_single_top_order instead (updn's ranking from dnup's top switch: legal paths everywhere), and
///     RoutingTables::notes names those switches and the top. Where the tops are shared but the switch
///     LIDs' valley turns still close a channel-dependency cycle (some random graphs; the tables are
///     checked with layer_assign's cycle rule on one layer), the same fallback, noted likewise.
///   - switch LIDs: legal paths, and one down->up turn at one valley switch per component between local
///     maxima of the order (route_switch_lids, as updn).
///   - routing.adaptive: AR groups over the same order (attach_ar_plan).
/// OpenSM's dnup differs in two ways: cables between switches of equal rank are usable both ways at any
/// point of its routes (smd orders them, so deadlock freedom holds on any graph), and it leaves switch LIDs
/// between the top switches of a fat tree unrouted (smd routes them through the valley).
/// RoutingTables::deadlock_free = true; ca_order = the CA order above.
/// Errors: kInvalidInput for an empty LidMap; kDeclined when no switch has a CA (OpenSM's "No leaf
/// switches found"): ranks need CAs, the chain moves on; kDeclined naming the switch GUIDs if even the
/// single-top order left a CA switch without a legal path (a guard: it cannot on a valid SwitchGraph).
/// Cost as updn: O(destination switches * cables + LIDs * switches), twice where the order falls back.
class DnupEngine : public SectionEngine<DnupOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
