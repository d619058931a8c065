// Netfile reader (routing/netfile*): any text is either refused with "name:line:column: what" (or an
// error naming the file) or becomes a consistent Topology (every cable on both ends, ports in range,
// unique GUIDs, no node cabled to itself). Small fabrics are then routed with the whole engine chain and
// verified, so topologies only a fuzzer writes reach the engines too.
#include <string>

#include "config/netfile_file.h"
#include "fuzz_util.h"
#include "routing/chain/registry.h"
#include "routing/lids/lid_assign.h"
#include "routing/model/components.h"
#include "routing/netfile/netfile.h"

namespace {

constexpr std::size_t kRouteAtMost = 48;  // nodes; routing bigger fuzzed fabrics would only slow the run

void check_topology(const smd::Topology& t) {
  using smd::fuzz::check;
  std::size_t switches = 0;
  for (smd::NodeIndex n = 0; n < t.size(); ++n) {
    const smd::Node& node = t.node(n);
    check(node.num_ports >= 1 && node.num_ports <= 254, "NumPorts 1..254");
    check(node.ports.size() == node.num_ports + 1u, "ports sized NumPorts + 1");
    check(t.find(node.guid) == n, "GUIDs are unique and indexed");
    switches += node.is_switch();
    for (const smd::Port& p : node.ports) {
      if (!p.connected()) continue;
      check(p.num != 0, "port 0 is never cabled");
      check(p.peer < t.size() && p.peer != n, "a cable leads to another node");
      const smd::Node& peer = t.node(p.peer);
      check(p.peer_port >= 1 && p.peer_port <= peer.num_ports, "peer port in range");
      const smd::Port& back = peer.ports[p.peer_port];
      check(back.peer == n && back.peer_port == p.num, "every cable is recorded on both ends");
    }
  }
  check(switches == t.switches().size(), "switch index complete");
  if (t.size() > 0) check(t.sm_node < t.size(), "the SM sits on a node");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Includes are read from disk as `smd plan` reads them, bounds and refusals included.
  auto topo = parse_netfile(text, "fuzz.net", netfile_file_includes());
  if (!topo) {
    // Without includes every error is about this text, so it must start with its name (and a place).
    const std::string& m = topo.error().message;
    fuzz::check(!m.empty(), "netfile errors say something");
    if (text.find("include") == std::string::npos) {
      fuzz::check(m.rfind("fuzz.net:", 0) == 0, "netfile errors start with the file name");
    }
    return 0;
  }
  check_topology(*topo);
  if (topo->size() > kRouteAtMost) return 0;
  if (connected_components(*topo).size() != 1) return 0;  // smd plan refuses islands before routing
  auto lids = assign_lids(*topo, Guid2Lid{}, LidAssignOptions{});
  if (!lids) return 0;
  auto routed = route_with_chain({"ftree", "updn", "minhop"}, RoutingOptions{}, *topo, *lids);
  if (routed) fuzz::check(routed->tables.lft.size() == topo->size(), "one LFT slot per node");
  return 0;
}
