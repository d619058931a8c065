// routing.minhop: the options of the minhop engine, read when the policy loads.
#pragma once

#include <string_view>

#include "routing/engines/common/routing_order.h"

namespace smd {

/// routing.minhop.guid_routing_order (or _file): the listed ports' LIDs routed first
/// (routing/engines/common/routing_order.h); empty = increasing LID order.
struct MinhopOptions : RoutingOrderOptions {
  static constexpr std::string_view kEngine = "minhop";
};

}  // namespace smd
