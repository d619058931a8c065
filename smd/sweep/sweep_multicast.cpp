// Multicast trees and MFTs (OpenSM's osm_mcast_mgr as sweep phase and idle-time pass): the SA's groups,
// by port GUID, resolved against the fabric being programmed; only the trees that no longer serve their
// group (members changed, a cable or switch of the tree gone) are rebuilt, the rest stay as they are; the
// result is verified and written as MFT diffs (smd/program/mcast_programmer.h). What the switches hold
// only changes when the verifier passed.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>
#include <unordered_map>
#include <utility>

#include "smd/program/mcast_programmer.h"
#include "smd/sweep/phase_timer.h"
#include "smd/sweep/sweep_runner.h"

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

void SweepRunner::set_mcast_groups(const std::vector<McastGroupGuids>& groups) {
  std::map<Lid, std::vector<Guid>> next;
  for (const McastGroupGuids& g : groups) {
    std::vector<Guid> members = g.port_guids;
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    next[g.mlid] = std::move(members);
  }
  // Changed: new MLIDs, MLIDs whose members differ, and MLIDs that are gone (their entries are cleared).
  for (const auto& [mlid, members] : next) {
    auto it = mcast_groups_.find(mlid);
    if (it == mcast_groups_.end() || it->second != members) mcast_changed_.insert(mlid);
  }
  for (const auto& [mlid, members] : mcast_groups_) {
    if (!next.contains(mlid)) mcast_changed_.insert(mlid);
  }
  mcast_groups_ = std::move(next);
}

McastProgramCounts SweepRunner::multicast_phase(SmpBatch& batch, SweepFabric& fabric,
                                                const std::shared_ptr<const Topology>& topo,
                                                std::vector<SweepProblem>& problems, unsigned& rebuilt) {
  rebuilt = 0;
  if (!mcast_builder_ || mcast_builder_topo_ != topo) {
    mcast_builder_.reset();
    mcast_builder_ = std::make_unique<McastTreeBuilder>(*topo);
    mcast_builder_topo_ = topo;
  }
  const std::vector<McastGroupPorts> groups = resolve_groups(*topo, mcast_groups_);
  // What to rebuild: groups whose tree no longer serves them on this fabric, those the SA changed, and
  // the MLIDs no group uses any more (an empty member list removes the tree).
  // On the fabric the trees were built on, only the SA's changes matter; a new fabric may have broken any.
  const bool same_fabric = mcast_tables_topo_ == topo;
  std::set<Lid> rebuild(mcast_changed_.begin(), mcast_changed_.end());
  if (!same_fabric) {
    for (Lid mlid : groups_to_rebuild(*topo, mcast_tables_, groups)) rebuild.insert(mlid);
  }
  std::vector<McastGroupPorts> changed;
  for (const McastGroupPorts& g : groups) {
    if (rebuild.contains(g.mlid)) changed.push_back(g);
  }
  for (const auto& [mlid, tree] : mcast_tables_.trees) {
    if (!mcast_groups_.contains(mlid)) changed.push_back({mlid, {}});
  }
  rebuilt = static_cast<unsigned>(changed.size());
  McastTables want = mcast_tables_;
  if (!changed.empty()) {
    Result<McastTables> built = mcast_builder_->update(mcast_tables_, changed);
    if (!built.ok()) {
      problems.push_back({ProblemCode::kNoRoute, 0, "-", "MulticastForwardingTable", built.error().message});
      return {};
    }
    want = std::move(built).value();
  }
  want.highest_mlid = mcast_groups_.empty() ? Lid{0} : mcast_groups_.rbegin()->first;
  const McastProgramCounts c =
      program_multicast(batch, fabric, want, applied_mft_, problems, same_fabric ? &mcast_tables_ : nullptr);
  if (c.verified) {
    mcast_tables_ = std::move(want);
    ++mcast_generation_;
    mcast_tables_topo_ = topo;
    mcast_changed_.clear();
  }
  return c;
}

McastPassSummary SweepRunner::multicast_pass() {
  McastPassSummary r;
  // sm.multicast false (OpenSM's disable_multicast): joins between sweeps program nothing either.
  if (!policy_.sm.multicast || !topo_ || !last_.topo || last_.topo != topo_ || mcast_changed_.empty()) {
    r.skipped = true;
    return r;
  }
  const auto t0 = SweepClock::now();
  const mad::TransportStats before = transport_.stats();
  SmpBatch batch(io_, transport_);
  SweepFabric fabric{ObservedFabric(last_)};
  r.counts = multicast_phase(batch, fabric, routed_topo_ ? routed_topo_ : topo_, r.problems, r.rebuilt);
  last_ = std::move(fabric).known();
  r.smps_sent = transport_.stats().sent - before.sent;
  r.ms = ms_since(t0);
  return r;
}

}  // namespace smd
