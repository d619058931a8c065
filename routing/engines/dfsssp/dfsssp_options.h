// routing.sssp and routing.dfsssp: the options of the balanced and the VL-layered engine, read when the policy
// loads.
#pragma once

#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/common/routing_order.h"
#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"

namespace smd {

/// routing.sssp: the balanced shortest paths without layers. guid_routing_order (or _file): the listed
/// ports' LIDs routed first, each finding the channels least loaded; an smd extension: OpenSM's sssp and
/// dfsssp ignore guid_routing_order_file.
struct SsspOptions : RoutingOrderOptions {
  static constexpr std::string_view kEngine = "sssp";
};

struct DfssspOptions : EngineOptions {
  static constexpr std::string_view kEngine = "dfsssp";

  /// routing.dfsssp.max_vls: at most this many data VLs (0..15), below what the ports and the QoS policy
  /// allow; 0 = as many as they allow.
  unsigned max_vls = 0;
  /// routing.dfsssp.spread_vls: spread each layer's routes over the VLs the layering leaves spare (fewer
  /// flows share a VL's buffers; paths stay the same).
  bool spread_vls = false;
  /// routing.dfsssp.guid_routing_order (or _file): as SsspOptions::guid_routing_order.
  std::vector<Guid> guid_routing_order;

  /// Read max_vls (0..kMaxDataVls), spread_vls and the routing order; false when one was refused. All are read even
  /// when the first is wrong, so the earliest problem in the file is reported.
  bool read(OptionReader& in);
  /// max_vls ("auto" for 0), spread_vls ("on"/"off") and the routing order for the policy summary.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
