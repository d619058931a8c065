// routing.dor: the options of the dimension-order engine, read when the policy loads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/common/switch_port_files.h"

namespace smd {

/// routing.dor.guid_routing_order (or _file), as minhop's. dor balances only over parallel cables to the
/// one neighbour its dimension order picks, so the order matters only where such cables exist (as in
/// OpenSM, whose unicast manager builds one port order for minhop, updn and dor).
struct DorOptions : RoutingOrderOptions {
  static constexpr std::string_view kEngine = "dor";

  /// routing.dor.port_search_ordering_file (OpenSM's port_search_ordering_file, its dimension meaning):
  /// per switch, its ports in dimension order ("<switch guid> <port> <port> ...", unlisted ports after the
  /// listed ones in port order); "" = port order. Parsed when the policy loads.
  std::string port_search_ordering_file;
  std::vector<PortSearchOrder> port_search_ordering;

  /// Read the routing order and port_search_ordering_file; false when one was refused.
  bool read(OptionReader& in);
  /// The routing order and the file for the policy summary ("none" when unset).
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
