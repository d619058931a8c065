// routing.nue: the options of the Nue engine, read when the policy loads.
#pragma once

#include <string_view>
#include <vector>

#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"

namespace smd {

struct NueOptions : EngineOptions {
  static constexpr std::string_view kEngine = "nue";

  /// routing.nue.max_vls (OpenSM's nue_max_num_vls): at most this many virtual layers (0..15), each a set
  /// of destinations on its own VL; 0 = as many as the ports' VLCap and the QoS policy allow. Default 1 as
  /// OpenSM's, so the routing is deadlock free with no SL2VL set up at all.
  unsigned max_vls = 1;
  /// routing.nue.include_switches (OpenSM's nue_include_switches): switch LIDs are destinations spread over
  /// the layers like the CAs' LIDs. Off: they all go on layer 0 after its CAs (OpenSM routes them on VL 0
  /// with no cycle check; smd keeps them inside layer 0's acyclic graph, so the whole table stays checked).
  bool include_switches = false;

  /// Read max_vls (0..kMaxDataVls) and include_switches; false when one was refused (both are read).
  bool read(OptionReader& in);
  /// max_vls ("auto" for 0) and include_switches ("on"/"off") for the policy summary.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
