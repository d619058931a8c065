// reroute_after_loss and lose_parts: see fabric_loss.h.
#include "routing/whatif/fabric_loss.h"

#include <utility>

#include "routing/chain/route_after_change.h"
#include "routing/whatif/drain_plan.h"

namespace smd {

Result<Rerouted> reroute_after_loss(const Topology& topo, const Topology& after, const LidMap& lids,
                                    const RoutingTables& before, const RerouteOptions& options) {
  RouteChangeInput in;
  in.before = &topo;
  in.previous = &before;
  in.now = &after;
  in.lids = &lids;
  in.chain = &options.chain;
  in.options = &options.routing;
  in.minimal_repair = options.minimal_repair;
  in.last_ftree_roots = before.tree_roots;
  if (options.extra_check) {
    in.extra_check = [&](const RoutingTables& tables) { return options.extra_check(after, tables); };
  }
  in.verify_local_repair = true;  // callers report deadlock freedom and quality on these tables
  RouteSteps steps;
  auto routed = route_after_change(in, steps);
  if (!routed) return routed.error();
  if (!routed->verified) return make_error(ErrorCode::kInternal, "route after change: tables without a report");
  Rerouted out;
  out.declined = std::move(routed->declined);
  out.warning = std::move(routed->warning);
  out.entries_kept = routed->stats.entries_kept;
  out.entries_repaired = routed->stats.entries_repaired;
  switch (routed->made_by) {
    case TablesMadeBy::kLocalRepair: out.made_by = "local repair"; break;
    case TablesMadeBy::kMinimalRepair: out.made_by = "minimal repair"; break;
    case TablesMadeBy::kFresh:
      out.made_by = steps.repair_allowed ? "fresh tables (local repair: " + steps.local_repair_declined +
                                               "; minimal repair: " + steps.mix_rejected + ")"
                                         : "fresh tables";
      break;
  }
  out.tables = std::move(routed->tables);
  out.verified = std::move(*routed->verified);
  return out;
}

Result<FabricLoss> lose_parts(const Topology& topo, const LidMap& lids, const RoutingTables& before,
                              std::span<const std::string> texts, std::string_view option,
                              const RerouteOptions& options) {
  auto parts = resolve_drain_parts(topo, texts, option);
  if (!parts) return parts.error();
  FabricLoss loss;
  loss.parts = std::move(parts).value();
  loss.topo = drained_topology(topo, loss.parts, loss.cables);
  auto routed = reroute_after_loss(topo, loss.topo, lids, before, options);
  if (!routed) return routed.error().with_context("fabric after the loss");
  loss.routed = std::move(routed).value();
  return loss;
}

}  // namespace smd
