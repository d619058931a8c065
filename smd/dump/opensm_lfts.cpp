#include "smd/dump/opensm_lfts.h"

#include <algorithm>

#include "smd/dump/opensm_order.h"

namespace smd::dump {

namespace {

/// Every switch's block in OpenSM's order, each appended to `out` and handed to `flush(out)`, which may
/// take the text away (a stream writer) or leave it to grow (the whole dump as one string).
template <class Flush>
void each_switch_block(const Topology& topo, const LidMap& lids, const RoutingTables& tables, std::string& out,
                       Flush&& flush) {
  std::vector<NodeIndex> switches(topo.switches().begin(), topo.switches().end());
  sort_as_opensm(switches, [&](NodeIndex n) { return topo.node(n).guid; });
  // What follows the port on a LID's row is the same on every switch: made once per LID, not per entry
  // (a 1728-host 3-tree has 432 x 2160 rows).
  Lid top_max = 0;
  for (NodeIndex n : switches) {
    if (n < tables.lft.size()) top_max = std::max(top_max, tables.lft[n].top());
  }
  std::vector<std::string> dest(static_cast<std::size_t>(top_max) + 1);
  for (unsigned lid = 0; lid <= top_max; ++lid) {
    const std::optional<LidOwner> owner = lid == 0 ? std::nullopt : lids.owner(static_cast<Lid>(lid));
    if (!owner) {
      dest[lid] = "unknown node and type\n";
      continue;
    }
    const Node& node = topo.node(owner->node);
    dest[lid] = std::string(opensm_node_type(node.type)) + " portguid " + format_guid(node.ports[owner->port].guid) +
                ": '" + opensm_print_desc(node.description) + "'\n";
  }
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
      // "0x%04x %03u # " by hand: snprintf per row was most of the time on large fabrics.
      static constexpr char kHex[] = "0123456789abcdef";
      const unsigned p = port;
      const char row[] = {'0',
                          'x',
                          kHex[(lid >> 12) & 15],
                          kHex[(lid >> 8) & 15],
                          kHex[(lid >> 4) & 15],
                          kHex[lid & 15],
                          ' ',
                          static_cast<char>('0' + p / 100),
                          static_cast<char>('0' + p / 10 % 10),
                          static_cast<char>('0' + p % 10),
                          ' ',
                          '#',
                          ' '};
      out.append(row, sizeof row);
      out += dest[lid];
    }
    out += std::to_string(top) + " lids dumped\n";
    flush(out);
  }
}

}  // namespace

std::string opensm_lfts(const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  std::string out;
  each_switch_block(topo, lids, tables, out, [](std::string&) {});
  return out;
}

void write_opensm_lfts(std::ostream& out, const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  std::string block;
  each_switch_block(topo, lids, tables, block, [&](std::string& text) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    text.clear();
  });
}

}  // namespace smd::dump
