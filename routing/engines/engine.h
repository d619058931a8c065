// RoutingEngine: the pluggable unicast routing interface. Engines are pure functions of
// (topology, LIDs, options) -> tables; they never touch the fabric.
#pragma once

#include <string_view>

#include "routing/base/status.h"
#include "routing/engines/engine_options.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

class RoutingEngine {
 public:
  virtual ~RoutingEngine() = default;
  /// Registry name ("minhop", "updn", "ftree").
  virtual std::string_view name() const = 0;
  /// Compute an LFT for every switch covering every LID in `lids`.
  /// Errors: kDeclined when the topology is not one this engine handles (the chain moves on).
  virtual Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const = 0;
};

}  // namespace smd
