// The multicast verifier: every McastTables passes it before any MFT block is written, as every LFT
// passes routing/verify/verify.h. It follows the port masks as a switch forwards a multicast packet (IBA
// 18.2.4.3: out of every port of the MLID's PortMask except the one it came in on) from every member,
// and checks what each flood reaches:
//   - every other member port of the group exactly once, and never its own sender;
//   - no switch twice (a loop, or two paths into one switch: both deliver duplicates);
//   - never a switch without the MLID, nor one whose mask does not send back on the port the packet came
//     in by (the packet has left the tree), nor a CA port or switch port 0 that is not a member, nor an
//     uncabled port;
//   - every switch holding the MLID is reached (no stray entries).
// A group with fewer than 2 member ports needs no tree and passes. Members the tree lists as unreachable
// are not expected to be reached.
// Cost: O(members * tree ports) per group; memory O(nodes + members).
#pragma once

#include <cstdint>
#include <string>

#include "routing/base/status.h"
#include "routing/mcast/mcast_tables.h"
#include "routing/model/topology.h"

namespace smd {

/// What the verifier followed.
struct McastVerifyReport {
  std::size_t groups = 0;          ///< MLIDs checked
  std::size_t trees = 0;           ///< MLIDs with 2 or more member ports (a tree to follow)
  std::size_t switch_entries = 0;  ///< (switch, MLID) masks
  std::uint64_t floods = 0;        ///< senders followed
  std::uint64_t deliveries = 0;    ///< member ports reached, over every flood
};

/// The first problem of one MLID's tree on `topo`, "" when the tree is right. The text names the MLID, the
/// switch (GUID and NodeDescription) and the port, e.g. "MLID 0xc001: switch 0x0000000000200003 (sw-1)
/// port 5: revisits switch 0x0000000000200001 (sw-0) (a loop)".
std::string check_mcast_tree(const Topology& topo, Lid mlid, const McastTree& tree);

/// Check every tree of `tables`. Errors: kVerifyFailed with the count of failing MLIDs and the first
/// problem (lowest MLID).
Result<McastVerifyReport> verify_mcast(const Topology& topo, const McastTables& tables);

}  // namespace smd
