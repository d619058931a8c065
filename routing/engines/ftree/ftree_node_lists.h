// ftree's compute-node and I/O-node lists (routing.ftree.cn_guids / io_guids, OpenSM's cn_guid_file and
// io_guid_file) applied to the fabric: which CA ports ftree balances for, which it routes afterwards.
#pragma once

#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/engines/common/ca_destinations.h"
#include "routing/engines/ftree/ftree_non_cn.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// The CA ports split as FtreeOptions says, each list in the order of `cas`.
struct ComputeNodeSplit {
  std::vector<CaDestination> cns;        ///< compute nodes: the leaves and the CA order
  std::vector<NonCnDestination> others;  ///< I/O nodes (credit max_reverse_hops) and unlisted ports (0)
  std::vector<std::string> notes;        ///< listed GUIDs that name no routed CA port (skipped, as OpenSM)
};

/// Split `cas` (ca_destinations) by CA port GUID. Errors: kDeclined when no compute node is left
/// (OpenSM: "Fabric has no valid compute nodes"), saying which list emptied it. Cost O(CAs + listed GUIDs).
Result<ComputeNodeSplit> split_compute_nodes(const Topology& topo, const SwitchGraph& graph,
                                             std::vector<CaDestination> cas, const FtreeOptions& options);

/// The note for tables whose non-CN routes take reverse hops: how many routes and why deadlock freedom
/// is no longer promised.
std::string reverse_hops_note(const NonCnRouting& routing);

}  // namespace smd
