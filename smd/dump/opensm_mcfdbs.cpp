#include "smd/dump/opensm_mcfdbs.h"

#include <cstdio>

#include "smd/dump/opensm_order.h"

namespace smd::dump {

std::string opensm_mcfdbs(const Topology& topo, const McastTables& tables) {
  const auto by_switch = mft_by_switch(tables);
  std::vector<NodeIndex> switches(topo.switches().begin(), topo.switches().end());
  sort_as_opensm(switches, [&](NodeIndex n) { return topo.node(n).guid; });
  std::string out;
  char buf[32];
  for (NodeIndex n : switches) {
    const auto it = by_switch.find(topo.node(n).guid);
    if (it == by_switch.end() || it->second.empty()) continue;
    out += "\nSwitch " + format_guid(topo.node(n).guid) + "\nLID    : Out Port(s)\n";
    for (const auto& [mlid, mask] : it->second) {
      std::snprintf(buf, sizeof buf, "0x%04X :", static_cast<unsigned>(mlid));
      out += buf;
      mask.for_each([&](PortNum p) {
        std::snprintf(buf, sizeof buf, " 0x%03X ", static_cast<unsigned>(p));
        out += buf;
      });
      out += "\n";
    }
  }
  return out;
}

}  // namespace smd::dump
