// routing.dor: the options of the dimension-order engine, read when the policy loads.
#pragma once

#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"

namespace smd {

struct DorOptions : EngineOptions {
  static constexpr std::string_view kEngine = "dor";

  /// routing.dor.guid_routing_order (or _file): port GUIDs whose LIDs are routed first, in this order
  /// (routing/engines/common/routing_order.h). dor balances only over parallel cables to the one
  /// neighbour its dimension order picks, so the order matters only where such cables exist (as in
  /// OpenSM, whose unicast manager builds one port order for minhop, updn and dor).
  std::vector<Guid> guid_routing_order;

  /// Read guid_routing_order or its _file (read_routing_order); false when refused.
  bool read(OptionReader& in);
  /// The routing order as summarise_order prints it.
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
