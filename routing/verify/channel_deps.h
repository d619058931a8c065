// The channel-dependency graph (Dally & Seitz 1987: routing on one VL is deadlock free iff it is acyclic)
// in the form every verifier here keeps it: one 256-bit port set per directed channel. A channel is a flat
// (switch, port) slot of SwitchGraph; deps[slot(s, p)] holds port q when some route goes s -p-> t -q->,
// t = the switch at the far end of (s, p). 256 ports cover every switch IBA can describe (NumPorts is
// 8 bits). Channels into a route's last switch wait on nothing there (the next channel delivers) and add
// no dependency.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"

namespace smd {

/// [flat slot] the ports of the peer switch this channel feeds (see the header comment).
using DepGraph = std::vector<std::array<std::uint64_t, 4>>;

/// Add the dependency (s -p-> t, t -q->) to `deps`.
inline void add_dependency(DepGraph& deps, std::uint32_t slot, PortNum q) {
  deps[slot][q >> 6] |= std::uint64_t{1} << (q & 63);
}

/// [flat slot] the switch the slot belongs to. O(slots).
std::vector<SwitchIndex> slot_switches(const SwitchGraph& graph);

/// One cycle of `deps` (channels in order), or nullopt when it is acyclic. Iterative DFS, O(slots + edges);
/// slot_switch = slot_switches(graph).
std::optional<std::vector<std::uint32_t>> find_cdg_cycle(const SwitchGraph& graph, const DepGraph& deps,
                                                         const std::vector<SwitchIndex>& slot_switch);

/// (channels with an outgoing dependency, dependencies) of `deps`.
std::pair<std::size_t, std::uint64_t> count_dependencies(const DepGraph& deps);

/// The dependencies of the routes packets injected at `sources` take to every LID 1..max_lid (index of
/// `targets`, from lid_targets), through `lfts` by lft_walk.h's hop rule: the graph verify_tables calls
/// ca_deps when `sources` are the switches with CA ports, without its delivery checks, hop statistics and
/// error text. For a caller that has already proved every route delivers (a local repair). A route that
/// does not deliver adds the dependencies between the switch-to-switch hops it makes before its first drop;
/// a walk stops at a switch already on a route to that LID (so a loop ends too). Cost O(LIDs x switches on the
/// routes), each (switch, LID) entry read at most twice, LIDs spread over the hardware threads; memory
/// 32 bytes per slot per thread.
DepGraph source_dependencies(const SwitchGraph& graph, const SwitchLfts& lfts, const std::vector<LidTarget>& targets,
                             const std::vector<SwitchIndex>& sources);

}  // namespace smd
