// RoutingEngine: the pluggable unicast routing interface. Engines are pure functions of
// (topology, LIDs, options) -> tables; they never touch the fabric.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// Engine options, validated when the policy loads (config/), consumed by engines at construction.
struct RoutingOptions {
  std::vector<Guid> updn_roots;   ///< routing.updn.roots: root switch GUIDs; empty = choose automatically
  std::vector<Guid> ftree_roots;  ///< routing.ftree.roots: top-level switch GUIDs; empty = infer
  bool adaptive = false;          ///< routing.adaptive: also compute AR groups
};

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
