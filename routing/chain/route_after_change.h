// The one repair decision (issue 40, "one mechanism per job"): which tables to program after the fabric
// changed, given the tables routed before. The daemon's routing phase (smd/sweep/sweep_routing.cpp) and the
// what-if drain (routing/whatif/drain_plan.cpp) both call it, so the what-if predicts what a sweep programs.
//
// The decision, in order:
//   1. Repair is allowed when the caller asks for it (routing.repair minimal, no full re-route pending),
//      there are tables before and `now` gained no cable or node (topology_gained_links): capacity that
//      came back is worth a re-balancing fresh run.
//   2. Allowed: the local repair of the tables before (routing/verify/local_repair.h), no engine run. It
//      checks what it changed itself; the verifier's whole report on its tables is made only on request.
//   3. Otherwise, or when it declines: the engine chain (routing/chain/registry.h, every result verified,
//      the caller's extra check included). When ftree declined (or the whole chain failed with ftree in it)
//      and the options name no roots, the chain runs once more with the last ftree roots still in `now`:
//      a leaf whose hosts are all down reads as a top switch when levels are counted up from the CAs. The
//      retry is taken only when ftree then wins.
//   4. Allowed and the chain succeeded: the minimal repair (routing/verify/repair.h), every old route that
//      still delivers kept and the fresh entries elsewhere, kept only if the verifier accepts the mix and,
//      when the fresh tables promise deadlock freedom, CA-injected traffic stays free of dependency
//      cycles. VL-layered tables are never mixed: a cycle may close through any route of a layer, so old
//      routes on old layers beside fresh ones prove nothing. The extra check is not run on repaired tables:
//      the only one in use (the planner's SL2VL check) concerns layered tables, which are never repaired.
//
// Pure: no I/O, no logging; the callers log the steps from RouteSteps and name repaired tables.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/chain/registry.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/route_proof.h"
#include "routing/model/topology.h"
#include "routing/verify/repair.h"
#include "routing/verify/verify.h"

namespace smd {

/// What route_after_change reads. The pointers are borrowed for the call; `before` and `previous` go
/// together (both null before anything was routed).
struct RouteChangeInput {
  const Topology* before = nullptr;             ///< the fabric `previous` was routed on
  const RoutingTables* previous = nullptr;      ///< tables routed before, indexed by `before`'s NodeIndex
  const RouteProof* previous_proof = nullptr;   ///< RouteProof of `previous` on `before`, if one is kept
  RouteProof* proof_out = nullptr;              ///< receives the local repair's RouteProof when it accepts
  const Topology* now = nullptr;                ///< the fabric to route (required)
  const LidMap* lids = nullptr;                 ///< LIDs of `now` (required)
  const std::vector<std::string>* chain = nullptr;  ///< routing.engines, in order (required)
  const RoutingOptions* options = nullptr;          ///< options the engines read (required)
  /// routing.repair minimal and no full re-route asked: repairs may be tried (step 1 still applies).
  bool minimal_repair = false;
  std::span<const Guid> last_ftree_roots;  ///< top switches of ftree's last run; empty = no retry
  ChainCheck extra_check;                  ///< added to the chain's verification; may be empty
  bool verify_local_repair = false;        ///< also run verify_tables on the local repair's tables
};

/// How the chosen tables were made.
enum class TablesMadeBy {
  kLocalRepair,    ///< the tables before, only broken routes re-routed (local_repair.h)
  kMinimalRepair,  ///< the fresh tables' entries where the old route broke, the old ones elsewhere (repair.h)
  kFresh,          ///< the engine chain's tables as they came
};

/// What became of the minimal repair (step 4).
enum class MixVerdict {
  kNotTried,  ///< repair not allowed, the local repair accepted, or the chain failed
  kLayered,   ///< fresh or previous tables VL-layered: never mixed
  kRejected,  ///< the mix failed verification or would give CA traffic a dependency cycle
  kKept,
};

/// The steps taken, filled as they happen, so that a caller can report them even when routing fails.
struct RouteSteps {
  bool repair_allowed = false;        ///< step 1's verdict
  std::string local_repair_declined;  ///< the local repair's reason; empty when not tried or accepted
  std::size_t ftree_retry_roots = 0;  ///< roots the ftree retry used when it was taken, else 0
  MixVerdict mix = MixVerdict::kNotTried;
  std::string mix_rejected;  ///< why the mix was not kept (kLayered, kRejected), else empty
};

/// The chosen tables and how they came about.
struct RouteAfterChange {
  /// Engine name as the step made it: the local repair and the minimal repair leave the previous and the
  /// fresh engine's name respectively; naming repaired tables is the caller's.
  RoutingTables tables;
  /// The verifier's report on `tables`; absent after a local repair unless verify_local_repair was set.
  std::optional<VerifyReport> verified;
  TablesMadeBy made_by = TablesMadeBy::kFresh;
  RepairStats stats;                      ///< of the repair that made `tables`; zero for fresh tables
  std::vector<ChainAttempt> declined;     ///< the chain's failed engines (empty when the chain did not run)
  std::string warning;                    ///< the chain's warning, if any
  std::vector<Guid> fresh_tree_roots;     ///< tree_roots of the chain's tables when they are ftree's
  bool chain_ran = false;                 ///< the engine chain ran (the local repair did not accept)
};

/// The tables to program on `in.now` (header comment for the decision). `steps` is reset and filled as
/// the steps run, also when an error is returned. Errors: the chain's when every engine failed
/// (kVerifyFailed/kDeclined, message listing each); kInvalidInput when a required input is null or `before`
/// and `previous` are not both set or both null; with verify_local_repair, the verifier's error on the
/// local repair's tables, with context "local repair". Cost: the local repair's, else one or two chain
/// runs plus one repair_tables and one verify_tables.
Result<RouteAfterChange> route_after_change(const RouteChangeInput& in, RouteSteps& steps);

}  // namespace smd
