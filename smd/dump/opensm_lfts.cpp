#include "smd/dump/opensm_lfts.h"

#include <cstdio>

#include "smd/dump/opensm_order.h"

namespace smd::dump {

std::string opensm_lfts(const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  std::vector<NodeIndex> switches(topo.switches().begin(), topo.switches().end());
  sort_as_opensm(switches, [&](NodeIndex n) { return topo.node(n).guid; });
  std::string out;
  char line[160];
  for (NodeIndex n : switches) {
    const Node& sw = topo.node(n);
    static const Lft kNone;
    const Lft& lft = n < tables.lft.size() ? tables.lft[n] : kNone;
    const unsigned top = lft.top();
    out += "Unicast lids [0-" + std::to_string(top) + "] of switch Lid " + std::to_string(lids.base_lid(n, 0)) +
           " guid " + format_guid(sw.guid) + " ('" + opensm_print_desc(sw.description) + "'):\n";
    for (unsigned lid = 0; lid <= top && !lft.empty(); ++lid) {
      const PortNum port = lft.get(static_cast<Lid>(lid));
      if (port > sw.num_ports) continue;  // 0xFF: no route
      std::snprintf(line, sizeof line, "0x%04x %03u # ", lid, static_cast<unsigned>(port));
      out += line;
      const std::optional<LidOwner> owner = lid == 0 ? std::nullopt : lids.owner(static_cast<Lid>(lid));
      if (owner) {
        const Node& dest = topo.node(owner->node);
        out += std::string(opensm_node_type(dest.type)) + " portguid " + format_guid(dest.ports[owner->port].guid) +
               ": '" + opensm_print_desc(dest.description) + "'\n";
      } else {
        out += "unknown node and type\n";
      }
    }
    out += std::to_string(top) + " lids dumped\n";
  }
  return out;
}

}  // namespace smd::dump
