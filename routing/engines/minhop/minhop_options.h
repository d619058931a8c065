// routing.minhop: the options of the minhop engine, read when the policy loads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/common/routing_order.h"
#include "routing/engines/common/switch_port_files.h"

namespace smd {

/// routing.minhop.guid_routing_order (or _file): the listed ports' LIDs routed first
/// (routing/engines/common/routing_order.h); empty = increasing LID order. The balancing inputs OpenSM's
/// minhop reads (routing/engines/common/balancing_ports.h), each a file in OpenSM's format parsed when the
/// policy loads (routing/engines/common/switch_port_files.h): a bad line refuses the policy at its
/// file:line:column.
struct MinhopOptions : RoutingOrderOptions {
  static constexpr std::string_view kEngine = "minhop";

  std::string hop_weights_file;           ///< routing.minhop.hop_weights_file as written; "" = none
  std::vector<HopWeight> hop_weights;     ///< its lines
  std::string port_search_ordering_file;  ///< routing.minhop.port_search_ordering_file; "" = none
  std::vector<PortSearchOrder> port_search_ordering;
  std::string port_prof_ignore_file;  ///< routing.minhop.port_prof_ignore_file; "" = none
  std::vector<SwitchPort> port_prof_ignore;
  /// routing.minhop.port_profile_switch_nodes: routes to switch LIDs count in the port profile. smd's default
  /// true keeps its tables as before this key; OpenSM's default is FALSE (import-opensm-conf writes it).
  bool port_profile_switch_nodes = true;
  /// routing.minhop.port_shifting (OpenSM's port_shifting): the search among equally loaded ports starts at
  /// a place that moves with the load, so LIDs do not line up on the same port in every switch.
  bool port_shifting = false;
  /// routing.minhop.scatter_ports (OpenSM's scatter_ports): 0 = off, else the seed of a random choice among
  /// the least-loaded ports; the same seed on the same fabric gives the same tables.
  unsigned scatter_ports = 0;

  /// Read the routing order, the three files, port_profile_switch_nodes, port_shifting and scatter_ports; false when
  /// one was refused. Every key is read even after a problem, so the earliest one in the file is reported.
  bool read(OptionReader& in);
  /// Each key for the policy summary (a file by its path, "none" when unset).
  std::vector<OptionSummary> summary() const;
};

}  // namespace smd
