// routing.torus_2qos: the geometry of OpenSM's torus-2QoS engine, read when the policy loads, inline or
// from an OpenSM torus-2QoS.conf (config_file, OpenSM's --torus_config).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"
#include "routing/engines/torus_2qos/torus_conf.h"

namespace smd {

struct Torus2QosOptions : EngineOptions {
  /// The registry name as OpenSM spells it (-R torus-2QoS); its section is routing.torus_2qos.
  static constexpr std::string_view kEngine = "torus-2QoS";
  static constexpr std::string_view kSection = "torus_2qos";

  /// routing.torus_2qos.config_file: an OpenSM torus-2QoS.conf (parse_torus_conf), read when the policy
  /// loads; "" = the inline keys below. Giving both is an error at config_file.
  std::string config_file;
  /// The geometry: from config_file, or from the inline keys x_radix, y_radix, z_radix (1..255, default
  /// 1), x_mesh, y_mesh, z_mesh (true = a line, not a ring), xp_link .. zm_link ([from GUID, to GUID], one
  /// seed) and x_dateline .. z_dateline (0..255). No geometry (radixes all 1) = the engine declines.
  TorusGeometry geometry;

  /// Read config_file or the inline keys; false when one was refused.
  bool read(OptionReader& in);
  /// "4x4x1 torus" (mesh dimensions marked m) and the config file, for the policy summary.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
