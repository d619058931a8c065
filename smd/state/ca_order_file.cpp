#include "smd/state/ca_order_file.h"

#include <cstdio>

#include "routing/base/safe_text.h"

namespace smd {

std::string ca_order_text(const Topology& topo, const RoutingTables& tables) {
  if (tables.ca_order.empty()) return {};
  std::string text =
      "# CA order routing engine " + tables.engine + " optimised for: index node-GUID port description\n";
  char line[96];
  for (std::size_t i = 0; i < tables.ca_order.size(); ++i) {
    const Node& ca = topo.node(tables.ca_order[i]);
    PortNum port = 1;
    while (port < ca.num_ports && !ca.ports[port].connected()) ++port;
    std::snprintf(line, sizeof line, "%zu 0x%016llx %u ", i, static_cast<unsigned long long>(ca.guid), port);
    text += line + printable_text(ca.description) + "\n";
  }
  return text;
}

}  // namespace smd
