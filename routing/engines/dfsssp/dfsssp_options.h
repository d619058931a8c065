// routing.dfsssp: the options of the VL-layered engine, as dfsssp_factory's parse accepted them.
#pragma once

#include <string_view>
#include <vector>

#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"

namespace smd {

struct DfssspOptions : EngineOptions {
  static constexpr std::string_view kEngine = "dfsssp";

  /// routing.dfsssp.max_vls: at most this many data VLs (0..15), below what the ports and the QoS policy
  /// allow; 0 = as many as they allow.
  unsigned max_vls = 0;
  /// routing.dfsssp.spread_vls: spread each layer's routes over the VLs the layering leaves spare (fewer
  /// flows share a VL's buffers; paths stay the same).
  bool spread_vls = false;

  /// Read max_vls (0..kMaxDataVls) and spread_vls; false when either was refused. Both are read even when
  /// the first is wrong, so the earliest problem in the file is reported.
  bool read(OptionReader& in);
  /// max_vls ("auto" for 0) and spread_vls ("on"/"off") for the policy summary.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
