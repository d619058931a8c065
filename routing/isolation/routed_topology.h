// The one place where the two kinds of "route around this" meet (issue 46 item 3): the operator's drains
// (`smctl drain`, `smd plan --drain`) and health isolation's requests (the unhealthy ports). Both become
// cables missing from the Topology routing sees; links stay up and every LID is kept, so tables computed on
// the result index the same nodes as the fabric.
//
// Order matters and is fixed: drains first, unconditionally (the operator asked, and a drain that cuts CAs
// off was refused before it was recorded unless forced), then plan_isolation on the drained fabric, so a
// health request is judged against what is left and never cuts off what the drains spared.
//
// Cost: O(cables) for the drains, plan_isolation's for the health requests, O(nodes + cables) for the
// separation check.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "routing/isolation/cable_isolation.h"
#include "routing/model/topology.h"

namespace smd {

/// The engine a heavy sweep routes with when drains are applied and neither the repair nor any engine of
/// the chain routes the fabric (a forced `smctl drain`, or a fabric changed since): min-hop routes any
/// fabric, and it is what OpenSM does too (its default engine when every configured one fails), so the
/// fabric is never left without tables because of a drain.
inline constexpr std::string_view kDrainFallbackEngine = "minhop";

/// The cables a list of drains takes out: for a switch (port 0) every cabled port, for a cable end
/// (node, port > 0) its cable. Each cable once, in the order first named, as isolated decisions; ends
/// outside `topo` (node or port out of range), uncabled ports and port 0 of a CA are skipped.
std::vector<IsolationDecision> drained_cables(const Topology& topo, std::span<const CableEnd> drains);

/// What routing sees: the Topology and what became of each request.
struct RoutedTopology {
  Topology topo;                           ///< `topo` without the drained and isolated cables
  std::vector<IsolationDecision> drained;  ///< the drained cables (drained_cables)
  std::vector<IsolationDecision> health;   ///< one per health request, in order, decided on the drained fabric
};

/// Drains, then health isolation, on `topo` (order and why in the header comment).
RoutedTopology routed_topology(const Topology& topo, std::span<const CableEnd> drains,
                               std::span<const CableEnd> health);

/// Two CA (or router) ports that reach each other over the cables of `before` and not over those of
/// `after` (the same fabric with cables removed, same node indexes): the first such pair by node index,
/// or nullopt when no pair is separated. Ports without a cable in `before` are not endpoints; in `after`
/// an endpoint whose own cable is gone reaches nothing.
std::optional<std::pair<CableEnd, CableEnd>> first_separated_pair(const Topology& before, const Topology& after);

}  // namespace smd
