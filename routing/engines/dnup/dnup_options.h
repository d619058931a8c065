// routing.dnup: the options of the down*/up* engine, read when the policy loads.
#pragma once

#include <string_view>

#include "routing/engines/common/routing_order.h"

namespace smd {

/// routing.dnup.guid_routing_order (or _file), as minhop's and updn's: OpenSM's unicast manager builds the
/// one port order for every engine that fills only min-hop tables, dnup among them. dnup has no roots: its
/// ranks come from where the CAs are.
struct DnupOptions : RoutingOrderOptions {
  static constexpr std::string_view kEngine = "dnup";
};

}  // namespace smd
