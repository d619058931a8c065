// The SL2VL tables a fabric will hold, as the verifier reads them: one Sl2Vl per (node, in port, out
// port). The planner implements it from the policy and the engine's layers; the verifier checks that
// every route's SL maps to its layer's VL at every hop before anything is written.
#pragma once

#include "routing/base/ids.h"
#include "routing/qos/qos_spec.h"

namespace smd {

class Sl2VlLookup {
 public:
  virtual ~Sl2VlLookup() = default;
  /// The table packets entering `node` on `in` and leaving on `out` are mapped by (IBA 14.2.5.8). For a
  /// CA or router port, in = 0 and out = the port. For a switch, in 0 is the switch's own port 0
  /// (switch-originated packets) and out 0 its management port.
  virtual Sl2Vl table(NodeIndex node, PortNum in, PortNum out) const = 0;
};

}  // namespace smd
