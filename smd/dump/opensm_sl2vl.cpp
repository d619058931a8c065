#include "smd/dump/opensm_sl2vl.h"

#include <cstdio>

#include "smd/dump/opensm_order.h"

namespace smd::dump {
namespace {

constexpr const char* kHeader = "#in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15\n";
constexpr const char* kSeparator = "#--------------------------------------------------------\n";

void row(std::string& out, unsigned in, unsigned out_port, const Sl2Vl& table) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%-3u %-3u :", in, out_port);
  out += buf;
  for (std::uint8_t vl : table) {
    std::snprintf(buf, sizeof buf, " %-2u", static_cast<unsigned>(vl));
    out += buf;
  }
  out += "\n";
}

}  // namespace

std::string opensm_sl2vl(const Topology& topo, const LidMap& lids, const Sl2VlLookup& sl2vl) {
  struct Entry {
    NodeIndex node;
    PortNum port;  // 0 for a switch
    Guid guid;
  };
  std::vector<Entry> entries;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (node.is_switch()) {
      if (lids.base_lid(n, 0) != 0) entries.push_back({n, 0, node.ports[0].guid});
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (lids.base_lid(n, p) != 0) entries.push_back({n, p, node.ports[p].guid});
    }
  }
  sort_as_opensm(entries, [](const Entry& e) { return e.guid; });
  std::string out;
  for (const Entry& e : entries) {
    const Node& node = topo.node(e.node);
    out += std::string(opensm_node_type(node.type)) + " " + format_guid(e.guid) + ", base LID " +
           std::to_string(lids.base_lid(e.node, e.port)) + ", \"" + opensm_print_desc(node.description) + "\"\n";
    out += kHeader;
    out += kSeparator;
    if (node.is_switch()) {
      for (PortNum o = 1; o <= node.num_ports; ++o) {
        if (!node.ports[o].connected()) continue;
        for (PortNum in = 0; in <= node.num_ports; ++in) row(out, in, o, sl2vl.table(e.node, in, o));
      }
    } else {
      row(out, 0, 0, sl2vl.table(e.node, 0, e.port));
    }
    out += kSeparator;
    out += "\n";
  }
  return out;
}

}  // namespace smd::dump
