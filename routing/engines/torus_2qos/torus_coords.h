// Where each switch sits in the torus torus-2QoS routes (its "topology discovery"): from a seed (a switch
// and its neighbours one hop along +x, +y, +z or -x, ...) every other switch is placed at the one grid
// position consistent with the cables around it. A candidate position q for an unplaced switch m, cabled
// to placed ones, is checked against every placed switch p nearby: in a torus of those radixes, q and
// p's position are adjacent or not, and have a known number of common neighbour positions; the cables of
// m and p must agree (a cable the geometry forbids rules q out; a missing one, a failed link, only counts
// against it). The only candidate with no contradiction and the fewest missing cables wins; a tie waits
// for more neighbours to be placed. This is the 4-loop ("face of a cube") reasoning of OpenSM's
// torus-2QoS(8), stated as a check; as there, a radix-4 ring needs both of its seed links (+ and -),
// because +1 and -1 are then indistinguishable by 4-loops.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/engines/torus_2qos/torus_conf.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// A grid position: [dim] 0..radix-1, datelines applied (coordinate 0 is just past the dateline).
using TorusCoord = std::array<unsigned, kTorusDims>;

/// The switches of a fabric placed on the grid of a TorusGeometry.
struct TorusPlacement {
  std::vector<TorusCoord> coord;   ///< [SwitchIndex], meaningful where placed
  std::vector<bool> placed;        ///< [SwitchIndex] false for a switch without switch cables
  std::vector<SwitchIndex> at;     ///< [x + X * (y + Y * z)] the switch there, kNoSwitch = empty (failed)
  std::size_t seed = 0;            ///< index of the seed used in TorusGeometry::seeds

  /// Index into `at` of position c.
  static std::size_t index(const TorusGeometry& g, const TorusCoord& c) {
    return c[0] + static_cast<std::size_t>(g.radix[0]) * (c[1] + static_cast<std::size_t>(g.radix[1]) * c[2]);
  }
};

/// "(x,y,z)" for messages.
std::string coord_text(const TorusCoord& c);

/// Place every switch of `topo` (one component) on `g`'s grid from the first seed whose switches are
/// present. Errors: kDeclined naming the reason, so the chain moves on: no seed found in the fabric ("seed
/// 1: xp_link 0x... -> 0x...: no cable between them"), more switches than positions, a switch that cannot
/// be placed (named by GUID and description, with the positions still open to it), or a cable that does
/// not join neighbouring positions (both ends and positions). Cost O(rounds * S * degree^2) with rounds
/// at most the grid's diameter on a pristine torus.
Result<TorusPlacement> place_switches(const Topology& topo, const SwitchGraph& graph, const TorusGeometry& g);

}  // namespace smd
