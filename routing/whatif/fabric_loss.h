// The fabric after parts of it are gone (drained for maintenance or failed), and the tables the daemon
// would program there. `smd plan --drain` (drain_plan.h) reports on them; `smd plan --fail` runs the
// IB-vs-RoCE comparison on them (routing/roce/compare.h, compare_before_after).
//
// The tables come from route_after_change (routing/chain/route_after_change.h), the one repair decision
// the daemon's sweep makes: with `minimal_repair` (routing.repair: minimal, the default) the local repair
// of the tables before when it accepts, else the chain's fresh tables with every route of before that
// still delivers kept; without it, the chain's fresh tables. No second model of what a repair programs.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/chain/registry.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/verify/verify.h"
#include "routing/whatif/drain_target.h"

namespace smd {

/// How the fabric after the loss is routed (the policy's routing section).
struct RerouteOptions {
  std::vector<std::string> chain;  ///< routing.engines, in order
  RoutingOptions routing;          ///< routing options the engines read
  /// Added to verification on the fabric after (the planner: its SL2VL check), given that fabric and its
  /// LIDs (lose_parts routes a compacted fabric, whose node indexes are not the caller's); may be empty.
  std::function<Status(const Topology&, const LidMap&, const RoutingTables&)> extra_check;
  bool minimal_repair = true;  ///< routing.repair minimal: keep what still delivers (header comment)
};

/// The tables after the loss and how they came about.
struct Rerouted {
  RoutingTables tables;   ///< what a repair sweep would program, indexed like the topology before
  VerifyReport verified;  ///< the verifier's report on `tables` (the local repair's tables included)
  /// "local repair", "minimal repair" (fresh + kept routes) or "fresh tables" (with the reasons when a
  /// repair was tried and declined or rejected).
  std::string made_by;
  std::uint64_t entries_kept = 0;      ///< (switch, LID) entries a repair kept from before
  std::uint64_t entries_repaired = 0;  ///< entries a repair routed again
  std::vector<ChainAttempt> declined;  ///< the chain's failed engines
  std::string warning;                 ///< the chain's warning, if any
};

/// Route `after` (the fabric `topo` routed as `before`, with cables gone; same nodes and LIDs) the way
/// the daemon would. Errors: route_after_change's (kVerifyFailed/kDeclined when no engine routes the
/// fabric after, kInvalidInput for inconsistent inputs).
Result<Rerouted> reroute_after_loss(const Topology& topo, const Topology& after, const LidMap& lids,
                                    const RoutingTables& before, const RerouteOptions& options);

/// A fabric with parts gone, routed.
struct FabricLoss {
  std::vector<DrainPart> parts;  ///< as named
  std::size_t cables = 0;        ///< distinct cables gone (a switch's and named cables, counted once)
  Topology topo;                 ///< drained_topology: indexes and LIDs unchanged, the cables gone
  /// Nodes left without a cable (the failed switches, the CAs behind a failed leaf or host cable): the
  /// daemon's discovery no longer finds them, so they are not in the fabric it routes.
  std::size_t nodes_gone = 0;
  Rerouted routed;  ///< indexed like `topo`; a node gone has an empty LFT
};

/// Name (drain_target.h grammar; errors say `option`), take out and route `texts` on `topo`. Unlike a
/// drain (links up, every node still discovered), failed parts are dead: route_after_change gets the
/// fabric the daemon's next sweep discovers, without the nodes left with no cable (a failed switch in
/// the topology would make ftree decline "not connected to the leaves"), and its tables are mapped back
/// to `topo`'s indexes. Errors: resolve_drain_parts' (kInvalidInput), reroute_after_loss's with context
/// "fabric after the loss".
Result<FabricLoss> lose_parts(const Topology& topo, const LidMap& lids, const RoutingTables& before,
                              std::span<const std::string> texts, std::string_view option,
                              const RerouteOptions& options);

}  // namespace smd
