// The [NodeIndex][port] shape every per-port view of an ObservedFabric has: one value made from each
// port's PortInfo, nullopt where the port was never read. The views that publish PortInfo fields
// (port_fields_view, port_link_view) differ only in what they take from it.
#pragma once

#include <optional>
#include <vector>

#include "smd/fabric/observed.h"

namespace smd {

/// [NodeIndex][port] of `known`: `of(port_info)` for each port with a PortInfo, nullopt for the rest.
/// Every node's row has one slot per port record (port 0 included). O(ports).
template <typename T, typename Of>
std::vector<std::vector<std::optional<T>>> port_info_matrix(const ObservedFabric& known, Of of) {
  std::vector<std::vector<std::optional<T>>> out(known.nodes.size());
  for (std::size_t n = 0; n < known.nodes.size(); ++n) {
    const NodeRecord& node = known.nodes[n];
    out[n].resize(node.ports.size());
    for (std::size_t p = 0; p < node.ports.size(); ++p) {
      if (node.ports[p].port_info) out[n][p] = of(*node.ports[p].port_info);
    }
  }
  return out;
}

}  // namespace smd
