#include "smd/dump/opensm_subnet.h"

#include <cstdio>

#include "smd/dump/opensm_order.h"

namespace smd::dump {
namespace {

const char* width_text(std::uint8_t w) {
  switch (w) {
    case 1: return "1x";
    case 2: return "4x";
    case 4: return "8x";
    case 8: return "12x";
    default: return "??";
  }
}

const char* state_text(std::uint8_t s) {
  switch (s) {
    case 4: return "ACT";
    case 3: return "ARM";
    case 2: return "INI";
    default: return "DWN";
  }
}

// LinkSpeedActive, replaced by LinkSpeedExtActive when the peer's LID port advertises extended speeds and
// the link runs one (OpenSM knows FDR and EDR there; anything newer it prints as "??").
const char* speed_text(const PortLinkView::Link& link, bool extended_speeds) {
  const char* text = link.link_speed_active == 1   ? "2.5"
                     : link.link_speed_active == 2 ? "5"
                     : link.link_speed_active == 4 ? "10"
                                                   : "??";
  if (extended_speeds && link.link_speed_ext_active != 0) {
    text = link.link_speed_ext_active == 1 ? "14" : link.link_speed_ext_active == 2 ? "25" : "??";
  }
  return text;
}

struct Side {
  NodeIndex node;
  PortNum port;
};

// One "{ ... }" of a line: the node's identity, read at its LID port (switch port 0, else the port).
std::string side_text(const FabricSnapshot& snap, Side s, bool peer) {
  const Node& node = snap.topo->node(s.node);
  const PortNum lid_port = node.is_switch() ? 0 : s.port;
  const Lid lid = snap.lids->base_lid(s.node, lid_port);
  const auto& link = snap.port_links->ports[s.node][lid_port];
  const bool sm = link && link->master_sm_lid == lid;
  const PortLinkView::NodeIdent& id = snap.port_links->nodes[s.node];
  // OpenSM prints the peer's 16-bit DeviceID through a 32-bit byte swap (see the header).
  const unsigned dev = peer ? static_cast<unsigned>(id.device_id) << 16 : id.device_id;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "{ %s%s Ports:%02X SystemGUID:%016llx NodeGUID:%016llx PortGUID:%016llx VenID:%0*X DevID:%04X "
                "Rev:%08X {%s} LID:%04X PN:%02X } ",
                opensm_node_tag(node.type), sm ? "-SM" : "", static_cast<unsigned>(node.num_ports),
                static_cast<unsigned long long>(node.system_image_guid), static_cast<unsigned long long>(node.guid),
                static_cast<unsigned long long>(node.ports[s.port].guid), peer ? 8 : 6, id.vendor_id, dev, id.revision,
                opensm_print_desc(node.description).c_str(), static_cast<unsigned>(lid), static_cast<unsigned>(s.port));
  return buf;
}

}  // namespace

Result<std::string> opensm_subnet_list(const FabricSnapshot& snap) {
  if (!snap.topo || !snap.lids || !snap.port_links) {
    return make_error(ErrorCode::kInvalidInput, "no swept fabric yet: opensm-subnet.lst needs a completed heavy sweep");
  }
  const Topology& topo = *snap.topo;
  // The view is made from the same sweep's fabric as the topology (daemon_publish.cpp); a mismatch is a bug
  // upstream, said rather than read out of bounds.
  bool fits = snap.port_links->nodes.size() == topo.size() && snap.port_links->ports.size() == topo.size();
  for (NodeIndex n = 0; fits && n < topo.size(); ++n)
    fits = snap.port_links->ports[n].size() == topo.node(n).ports.size();
  if (!fits)
    return make_error(ErrorCode::kInternal, "opensm-subnet.lst: the port view is not of the snapshot's fabric");
  std::vector<NodeIndex> nodes;
  for (NodeIndex n = 0; n < topo.size(); ++n) nodes.push_back(n);
  sort_as_opensm(nodes, [&](NodeIndex n) { return topo.node(n).guid; });
  std::string out;
  for (NodeIndex n : nodes) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (!port.connected()) continue;
      const auto& link = snap.port_links->ports[n][p];
      // OpenSM decides on extended speeds by the peer's LID port (its code has moved on to the peer by then).
      const Node& peer = topo.node(port.peer);
      const auto& lid_link = snap.port_links->ports[port.peer][peer.is_switch() ? 0 : port.peer_port];
      const PortLinkView::Link here = link.value_or(PortLinkView::Link{});
      out += side_text(snap, {n, p}, false);
      out += side_text(snap, {port.peer, port.peer_port}, true);
      out += std::string("PHY=") + width_text(here.link_width_active) + " LOG=" + state_text(here.port_state) +
             " SPD=" + speed_text(here, lid_link && lid_link->extended_speeds) + "\n";
    }
  }
  return out;
}

}  // namespace smd::dump
