// routing.lash: the options of the layered shortest-path engine, read when the policy loads.
#pragma once

#include <string_view>
#include <vector>

#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"

namespace smd {

struct LashOptions : EngineOptions {
  static constexpr std::string_view kEngine = "lash";

  /// routing.lash.max_vls: at most this many data VLs (0..15), below what the ports and the QoS policy
  /// allow; 0 = as many as they allow. OpenSM's lash_start_vl has no counterpart: layer l travels on SL l
  /// and VL l (VlLayering), so lash always starts at VL 0.
  unsigned max_vls = 0;
  /// routing.lash.spread_vls: spread each layer's routes over the VLs the layering leaves spare
  /// (spread_layers; paths stay the same). OpenSM moves switch pairs between the layers it needs instead.
  bool spread_vls = false;

  /// Read max_vls (0..kMaxDataVls) and spread_vls; false when one was refused (both are read).
  bool read(OptionReader& in);
  /// max_vls ("auto" for 0) and spread_vls ("on"/"off") for the policy summary.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
