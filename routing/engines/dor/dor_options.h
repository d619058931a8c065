// routing.dor: the options of the dimension-order engine, read when the policy loads.
#pragma once

#include <string_view>

#include "routing/engines/common/routing_order.h"

namespace smd {

/// routing.dor.guid_routing_order (or _file), as minhop's. dor balances only over parallel cables to the
/// one neighbour its dimension order picks, so the order matters only where such cables exist (as in
/// OpenSM, whose unicast manager builds one port order for minhop, updn and dor).
struct DorOptions : RoutingOrderOptions {
  static constexpr std::string_view kEngine = "dor";
};

}  // namespace smd
