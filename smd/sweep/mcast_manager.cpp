#include "smd/sweep/mcast_manager.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace smd {

namespace {

/// `groups` with every member port GUID resolved on `topo`: CA ports, and switch port 0 (a switch's port
/// GUID). Members the fabric no longer has are left out (they left with their port).
std::vector<McastGroupPorts> resolve_groups(const Topology& topo, const std::map<Lid, std::vector<Guid>>& groups) {
  std::unordered_map<Guid, std::pair<NodeIndex, PortNum>> endport;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (node.is_switch()) {
      endport.emplace(node.ports[0].guid, std::make_pair(n, PortNum{0}));
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) endport.emplace(node.ports[p].guid, std::make_pair(n, p));
  }
  std::vector<McastGroupPorts> out;
  out.reserve(groups.size());
  for (const auto& [mlid, guids] : groups) {
    McastGroupPorts g;
    g.mlid = mlid;
    for (Guid guid : guids) {
      if (auto it = endport.find(guid); it != endport.end()) g.members.push_back(it->second);
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

void McastManager::set_groups(const std::vector<McastGroupGuids>& groups) {
  std::map<Lid, std::vector<Guid>> next;
  for (const McastGroupGuids& g : groups) {
    std::vector<Guid> members = g.port_guids;
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    next[g.mlid] = std::move(members);
  }
  // Changed: new MLIDs, MLIDs whose members differ, and MLIDs that are gone (their entries are cleared).
  for (const auto& [mlid, members] : next) {
    auto it = groups_.find(mlid);
    if (it == groups_.end() || it->second != members) changed_.insert(mlid);
  }
  for (const auto& [mlid, members] : groups_) {
    if (!next.contains(mlid)) changed_.insert(mlid);
  }
  groups_ = std::move(next);
}

std::vector<McastGroupPorts> McastManager::groups_to_update(const Topology& topo, bool same_fabric) const {
  const std::vector<McastGroupPorts> groups = resolve_groups(topo, groups_);
  // Groups whose tree no longer serves them on this fabric, those the SA changed, and the MLIDs no group
  // uses any more. On the fabric the trees were built on, only the SA's changes matter; a new fabric may
  // have broken any.
  std::set<Lid> rebuild(changed_.begin(), changed_.end());
  if (!same_fabric) {
    for (Lid mlid : groups_to_rebuild(topo, tables_, groups)) rebuild.insert(mlid);
  }
  std::vector<McastGroupPorts> changed;
  for (const McastGroupPorts& g : groups) {
    if (rebuild.contains(g.mlid)) changed.push_back(g);
  }
  for (const auto& [mlid, tree] : tables_.trees) {
    if (!groups_.contains(mlid)) changed.push_back({mlid, {}});
  }
  return changed;
}

McastProgramCounts McastManager::program(SmpBatch& batch, SweepFabric& fabric,
                                         const std::shared_ptr<const Topology>& topo, AppliedMft& applied,
                                         std::vector<SweepProblem>& problems, unsigned& rebuilt) {
  if (!builder_ || builder_topo_ != topo) {
    builder_.reset();
    builder_ = std::make_unique<McastTreeBuilder>(*topo);
    builder_topo_ = topo;
  }
  const bool same_fabric = tables_topo_ == topo;
  const std::vector<McastGroupPorts> changed = groups_to_update(*topo, same_fabric);
  rebuilt = static_cast<unsigned>(changed.size());
  McastTables want = tables_;
  if (!changed.empty()) {
    Result<McastTables> built = builder_->update(tables_, changed);
    if (!built.ok()) {
      problems.push_back({ProblemCode::kNoRoute, 0, "-", "MulticastForwardingTable", built.error().message});
      return {};
    }
    want = std::move(built).value();
  }
  want.highest_mlid = groups_.empty() ? Lid{0} : groups_.rbegin()->first;
  const McastProgramCounts c = program_multicast(batch, fabric, want, applied, problems, same_fabric ? &tables_ : nullptr);
  if (c.verified) {
    tables_ = std::move(want);
    ++generation_;
    tables_topo_ = topo;
    changed_.clear();
  }
  return c;
}

void McastManager::forget_trees() {
  tables_ = {};
  ++generation_;
  tables_topo_.reset();
}

}  // namespace smd
