// routing.minhop: the options of the minhop engine, as minhop_factory's parse accepted them.
#pragma once

#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/engine_options.h"

namespace smd {

struct MinhopOptions : EngineOptions {
  static constexpr std::string_view kEngine = "minhop";

  /// routing.minhop.guid_routing_order (or _file): port GUIDs whose LIDs are routed first, in this order
  /// (routing/engines/common/routing_order.h); empty = increasing LID order.
  std::vector<Guid> guid_routing_order;
};

}  // namespace smd
