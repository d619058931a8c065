// reroute_after_loss and lose_parts: see fabric_loss.h.
#include "routing/whatif/fabric_loss.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "routing/chain/route_after_change.h"
#include "routing/model/adaptive.h"
#include "routing/model/vl_layers.h"
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
    in.extra_check = [&](const RoutingTables& tables) { return options.extra_check(after, lids, tables); };
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
      // The local repair's reason starts "local repair: " already (local_repair.h).
      out.made_by = steps.repair_allowed ? "fresh tables (" + steps.local_repair_declined +
                                               "; minimal repair: " + steps.mix_rejected + ")"
                                         : "fresh tables";
      break;
  }
  out.tables = std::move(routed->tables);
  out.verified = std::move(*routed->verified);
  return out;
}

namespace {

/// The fabric the daemon's discovery finds after the loss: `drained` without its nodes that have no
/// cable left, compacted, with their LIDs; `old_of` maps its indexes back to `drained`'s.
struct Discovered {
  Topology topo;
  LidMap lids;
  std::vector<NodeIndex> old_of;
};

Result<Discovered> discovered_after(const Topology& drained, const LidMap& lids) {
  Discovered out;
  std::vector<NodeIndex> new_of(drained.size(), kNoNode);
  for (NodeIndex n = 0; n < drained.size(); ++n) {
    const Node& node = drained.node(n);
    if (std::none_of(node.ports.begin(), node.ports.end(), [](const Port& p) { return p.connected(); })) continue;
    Node copy = node;
    for (Port& p : copy.ports) {
      p.peer = kNoNode;
      p.peer_port = 0;
    }
    auto added = out.topo.add_node(std::move(copy));
    if (!added) return added.error();
    new_of[n] = *added;
    out.old_of.push_back(n);
  }
  for (NodeIndex n = 0; n < drained.size(); ++n) {
    for (const Port& p : drained.node(n).ports) {
      if (!p.connected() || std::pair(p.peer, p.peer_port) < std::pair(n, p.num)) continue;  // each cable once
      if (auto st = out.topo.connect(new_of[n], p.num, new_of[p.peer], p.peer_port); !st) return st.error();
    }
  }
  if (drained.sm_node < drained.size() && new_of[drained.sm_node] != kNoNode) {
    out.topo.sm_node = new_of[drained.sm_node];
    out.topo.sm_port = drained.sm_port;
  }
  for (const LidMap::Entry& e : lids.entries()) {
    if (e.owner.node >= drained.size() || new_of[e.owner.node] == kNoNode) continue;
    if (auto st = out.lids.assign(new_of[e.owner.node], e.owner.port, e.base, e.lmc); !st) return st.error();
  }
  return out;
}

/// `t` (indexed like the discovered fabric) indexed like `drained` (old_of): a node gone has no LFT, no AR
/// group and layer 0.
RoutingTables to_drained_indexes(RoutingTables t, const std::vector<NodeIndex>& old_of, const Topology& drained) {
  std::vector<Lft> lft(drained.size());
  for (NodeIndex n = 0; n < t.lft.size() && n < old_of.size(); ++n) lft[old_of[n]] = std::move(t.lft[n]);
  t.lft = std::move(lft);
  for (NodeIndex& n : t.ca_order) n = old_of[n];
  if (t.adaptive) {
    auto plan = std::make_shared<AdaptivePlan>();
    plan->groups = t.adaptive->groups;
    plan->group_of.resize(drained.size());
    for (NodeIndex n = 0; n < t.adaptive->group_of.size() && n < old_of.size(); ++n) {
      plan->group_of[old_of[n]] = t.adaptive->group_of[n];
    }
    t.adaptive = std::move(plan);
  }
  if (t.layering) {
    const VlLayering& from = *t.layering;
    auto layering = std::make_shared<VlLayering>(drained, from.max_lid());
    for (NodeIndex n = 0; n < old_of.size(); ++n) {
      if (!drained.node(old_of[n]).is_switch()) continue;
      for (Lid dlid = 0; dlid <= from.max_lid(); ++dlid) layering->set(old_of[n], dlid, from.layer_of(n, dlid));
    }
    if (from.hop_sl2vl()) {
      layering->set_hop_sl2vl(std::make_shared<const HopSl2Vl>(from.hop_sl2vl()->renumbered(old_of, drained.size())));
    }
    t.layering = std::move(layering);
  }
  return t;
}

}  // namespace

Result<FabricLoss> lose_parts(const Topology& topo, const LidMap& lids, const RoutingTables& before,
                              std::span<const std::string> texts, std::string_view option,
                              const RerouteOptions& options) {
  auto parts = resolve_drain_parts(topo, texts, option);
  if (!parts) return parts.error();
  if (Status distinct = distinct_drain_parts(*parts, option); !distinct) return distinct.error();
  FabricLoss loss;
  loss.parts = std::move(parts).value();
  loss.topo = drained_topology(topo, loss.parts, loss.cables);
  auto found = discovered_after(loss.topo, lids);
  if (!found) return found.error().with_context("fabric after the loss");
  loss.nodes_gone = loss.topo.size() - found->topo.size();
  auto routed = reroute_after_loss(topo, found->topo, found->lids, before, options);
  if (!routed) return routed.error().with_context("fabric after the loss");
  loss.routed = std::move(routed).value();
  loss.routed.tables = to_drained_indexes(std::move(loss.routed.tables), found->old_of, loss.topo);
  return loss;
}

}  // namespace smd
