// The geometry torus-2QoS routes by (torus-2QoS.conf(5), OpenSM's --torus_config): the radix of each
// dimension and whether it is a ring (torus) or a line (mesh), the seed links that fix the coordinate
// directions, and where each ring's dateline lies. Read from the policy's routing.torus_2qos keys or from
// an OpenSM torus-2QoS.conf by parse_torus_conf.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// Dimensions torus-2QoS knows: x, y, z (one SL bit each, bit 3 the QoS level).
inline constexpr unsigned kTorusDims = 3;

/// One seed: the switch at the origin (every link's first GUID) and its neighbours, and the datelines.
struct TorusSeed {
  /// [2 * dim + (0 = minus, 1 = plus)] the switch one hop that way from the origin; 0 = not given.
  std::array<Guid, 2 * kTorusDims> neighbour{};
  Guid origin = 0;
  /// [dim] moves the origin this many switches (x_dateline): the dateline lies between coordinates
  /// radix - 1 and 0 counted from the moved origin. Any integer; taken modulo the radix.
  std::array<int, kTorusDims> dateline{};
};

struct TorusGeometry {
  std::array<unsigned, kTorusDims> radix{1, 1, 1};  ///< switches along each dimension, 1 = unused
  std::array<bool, kTorusDims> ring{true, true, true};  ///< wraps round (torus) or not (mesh)
  std::vector<TorusSeed> seeds;  ///< in the file's order; the first whose switches are all present is used
  /// port_order: CA ports of a destination switch in the order routes are spread over parallel links.
  std::vector<PortNum> port_order;

  /// Switches a fabric of this geometry has.
  unsigned switches() const { return radix[0] * radix[1] * radix[2]; }
  /// True when dimension d wraps round and has a dateline (a ring of 3 or more switches).
  bool has_dateline(unsigned d) const { return ring[d] && radix[d] > 2; }
};

/// Parse an OpenSM torus-2QoS.conf: "torus|mesh X[mMtT] Y Z" first, then xp_link..zm_link GUID pairs,
/// x_dateline..z_dateline, next_seed, port_order, portgroup_max_ports and max_changes (read and checked,
/// no effect in smd). '#' to the end of a line is a comment; tokens after a keyword's own are ignored, as
/// OpenSM does. Errors: kInvalidInput "NAME:line:column: message" for an unknown keyword, a missing or bad
/// number or GUID, a link whose first switch is not its seed's origin, a radix of 0, or no torus/mesh line.
Result<TorusGeometry> parse_torus_conf(std::string_view text, std::string_view name);

}  // namespace smd
