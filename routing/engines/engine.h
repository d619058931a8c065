// RoutingEngine: the pluggable unicast routing interface. Engines are pure functions of
// (topology, LIDs, options) -> tables; they never touch the fabric.
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

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

/// The shape every engine shares once its policy section is read (ftree, updn, dnup, minhop, sssp, dfsssp, dor,
/// lash, file): it keeps the section's options and is named by them (Options::kEngine, so the registry
/// name and the engine's cannot drift apart), and it is built as Engine(options, routing options) by
/// SectionEngineFactory. Of the routing options it keeps the two engines read: the data VLs the fabric
/// offers (the VL-layered dfsssp and lash fit their layers into them) and routing.adaptive (ftree and
/// updn also build AR groups).
template <class Options>
class SectionEngine : public RoutingEngine {
 public:
  SectionEngine(Options options, const RoutingOptions& routing)
      : options_(std::move(options)), data_vls_(routing.data_vls), adaptive_(routing.adaptive) {}
  std::string_view name() const override { return Options::kEngine; }

 protected:
  Options options_;
  std::uint8_t data_vls_;  ///< RoutingOptions::data_vls
  bool adaptive_;          ///< RoutingOptions::adaptive
};

}  // namespace smd
