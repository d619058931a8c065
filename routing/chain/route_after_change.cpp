// route_after_change: see route_after_change.h for the decision and why each step is there.
#include "routing/chain/route_after_change.h"

#include <algorithm>
#include <utility>

#include "routing/verify/local_repair.h"

namespace smd {
namespace {

bool ftree_declined_in(const Result<ChainResult>& routed, const std::vector<std::string>& chain) {
  // A failed chain's attempts are only in its error text: ftree being in the chain is enough (the retry's
  // tables are verified like any other). A chain that succeeded says whether ftree declined.
  if (!routed.ok()) return std::find(chain.begin(), chain.end(), "ftree") != chain.end();
  return std::any_of(routed->declined.begin(), routed->declined.end(), [](const ChainAttempt& a) {
    return a.engine == "ftree" && a.error.code == ErrorCode::kDeclined;
  });
}

/// Step 3's second run: the chain with the last ftree roots present in `now`, taken only when ftree wins.
void retry_with_ftree_roots(const RouteChangeInput& in, Result<ChainResult>& routed, RouteSteps& steps) {
  if (in.last_ftree_roots.empty() || ftree_roots_configured(*in.options)) return;
  if (routed.ok() && routed->tables.engine == "ftree") return;
  if (!ftree_declined_in(routed, *in.chain)) return;
  std::vector<Guid> present;
  for (Guid g : in.last_ftree_roots) {
    if (in.now->find(g)) present.push_back(g);
  }
  if (present.empty()) return;
  const std::size_t roots = present.size();
  // The whole chain again, not ftree alone: its declined list and its rule for kept CA-safe tables then
  // read as one chain run with those roots.
  auto rooted = route_with_chain(*in.chain, with_ftree_roots(*in.options, std::move(present)), *in.now, *in.lids,
                                 in.extra_check);
  if (!rooted.ok() || rooted->tables.engine != "ftree") return;
  routed = std::move(rooted);
  steps.ftree_retry_roots = roots;
}

/// Step 4 on the chain's fresh tables; `out.tables` holds them on entry and the chosen ones on return.
void mix_with_previous(const RouteChangeInput& in, RouteAfterChange& out, RouteSteps& steps) {
  const RoutingTables& fresh = out.tables;
  if (fresh.layering || in.previous->layering) {
    steps.mix = MixVerdict::kLayered;
    steps.mix_rejected = "VL-layered tables are never mixed";
    return;
  }
  RepairStats rs;
  RoutingTables mixed = repair_tables(*in.before, *in.previous, *in.now, *in.lids, fresh, rs);
  // Every route must deliver; deadlock freedom is required for the traffic CAs inject. A switch whose old
  // route died may need a detour with a down-up turn for its own (management) traffic: on a degraded fat
  // tree no up/down-legal route exists from it, and the fresh run would re-route everything instead.
  auto verified = verify_tables(*in.now, *in.lids, mixed, false);
  if (!verified.ok() || (fresh.deadlock_free && !verified->ca_deadlock_free)) {
    steps.mix = MixVerdict::kRejected;
    steps.mix_rejected =
        verified.ok() ? "CA traffic would have a channel-dependency cycle" : verified.error().message;
    return;
  }
  mixed.deadlock_free = fresh.deadlock_free && verified->deadlock_free;
  steps.mix = MixVerdict::kKept;
  out.tables = std::move(mixed);
  out.verified = std::move(verified).value();
  out.made_by = TablesMadeBy::kMinimalRepair;
  out.stats = rs;
}

}  // namespace

Result<RouteAfterChange> route_after_change(const RouteChangeInput& in, RouteSteps& steps) {
  steps = RouteSteps{};
  if (in.now == nullptr || in.lids == nullptr || in.chain == nullptr || in.options == nullptr) {
    return make_error(ErrorCode::kInvalidInput, "route after change: the fabric, LIDs, chain and options are required");
  }
  if ((in.before == nullptr) != (in.previous == nullptr)) {
    return make_error(ErrorCode::kInvalidInput,
                      "route after change: the tables before and the fabric they were routed on go together");
  }
  steps.repair_allowed = in.minimal_repair && in.previous != nullptr && !topology_gained_links(*in.before, *in.now);

  RouteAfterChange out;
  if (steps.repair_allowed) {
    RepairStats rs;
    auto local = repair_locally(*in.before, *in.previous, *in.now, *in.lids, rs, in.previous_proof, in.proof_out);
    if (local.ok()) {
      if (in.verify_local_repair) {
        auto verified = verify_tables(*in.now, *in.lids, *local, false);
        if (!verified.ok()) return verified.error().with_context("local repair");
        out.verified = std::move(verified).value();
      }
      out.tables = std::move(local).value();
      out.made_by = TablesMadeBy::kLocalRepair;
      out.stats = rs;
      return out;
    }
    steps.local_repair_declined = local.error().message;
  }

  out.chain_ran = true;
  auto routed = route_with_chain(*in.chain, *in.options, *in.now, *in.lids, in.extra_check);
  retry_with_ftree_roots(in, routed, steps);
  if (!routed.ok()) return routed.error();
  out.declined = std::move(routed->declined);
  out.warning = std::move(routed->warning);
  if (routed->tables.engine == "ftree") out.fresh_tree_roots = routed->tables.tree_roots;
  out.tables = std::move(routed->tables);
  out.verified = std::move(routed->verified);
  out.made_by = TablesMadeBy::kFresh;
  if (steps.repair_allowed) mix_with_previous(in, out, steps);
  return out;
}

}  // namespace smd
