// The multicast manager (OpenSM's osm_mcast_mgr): the SA's groups as the SM last heard of them, the trees
// last verified and programmed, and which MLIDs need a new tree. It owns that state across sweeps; the
// heavy sweep's multicast phase and the idle-time pass between sweeps (SweepRunner) both program through
// it. Only the trees that no longer serve their group (members changed, a cable or switch of the tree
// gone) are rebuilt; the result is verified and written as MFT diffs (smd/program/mcast_programmer.h),
// and what the switches are believed to hold changes only when the verifier passed.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/mcast/mcast_tables.h"
#include "routing/mcast/mcast_tree.h"
#include "smd/fabric/applied_mft.h"
#include "smd/fabric/mcast_groups.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/mcast_programmer.h"

namespace smd {

class McastManager {
 public:
  /// The SA's groups as of now (every MLID in use, with its members' port GUIDs). MLIDs whose members
  /// differ from the last call, new ones and vanished ones have their trees rebuilt (or removed) by the
  /// next program(); the others keep theirs.
  void set_groups(const std::vector<McastGroupGuids>& groups);

  /// Rebuild what no longer serves its group on `topo` (the fabric routing sees), verify, and write the
  /// MFT blocks that differ from `applied`. `rebuilt` is the number of MLIDs whose tree was rebuilt or
  /// removed. A tree builder failure is one problem (kNoRoute) and nothing is written.
  McastProgramCounts program(SmpBatch& batch, SweepFabric& fabric, const std::shared_ptr<const Topology>& topo,
                             AppliedMft& applied, std::vector<SweepProblem>& problems, unsigned& rebuilt);

  /// The trees the switches were last programmed with (empty before the first program()).
  const McastTables& tables() const { return tables_; }
  /// Changes whenever tables() does (a verified pass, a reset): readers rebuild views then.
  std::uint64_t generation() const { return generation_; }
  /// Some group changed since the last verified program() (its tree is not programmed yet).
  bool rebuild_pending() const { return !changed_.empty(); }

  /// Another SM programs the fabric: the next program() builds every tree afresh. The SA's groups stay.
  void forget_trees();

 private:
  // The MLIDs whose tree is rebuilt on `topo`, with their members on it (an empty member list removes
  // the tree); `same_fabric`: `topo` is the one the trees were verified on.
  std::vector<McastGroupPorts> groups_to_update(const Topology& topo, bool same_fabric) const;

  std::map<Lid, std::vector<Guid>> groups_;  ///< the SA's groups: MLID -> sorted member port GUIDs
  std::set<Lid> changed_;                    ///< MLIDs to rebuild at the next program()
  McastTables tables_;                       ///< the trees as last verified and programmed
  std::shared_ptr<const Topology> tables_topo_;  ///< the fabric they were verified on
  std::uint64_t generation_ = 0;                 ///< bumped on every change of tables_
  std::unique_ptr<McastTreeBuilder> builder_;    ///< indexes builder_topo_ (kept while it lives)
  std::shared_ptr<const Topology> builder_topo_;
};

}  // namespace smd
