#include "tests/unit/smd/incremental_attack.h"

#include <sstream>
#include <tuple>

#include "mad/codec/node_info.h"
#include "mad/codec/switch_info.h"
#include "smd/sweep/discovery.h"

namespace smd::test {

std::unique_ptr<SweepRig> rig_of(Result<Topology> t, unsigned retries) {
  EXPECT_TRUE(t.ok());
  return std::make_unique<SweepRig>(std::move(t.value()), retries);
}

std::string str(const Cable& c) {
  return format_guid(std::get<0>(c)) + "[" + std::to_string(std::get<1>(c)) + "]-" + format_guid(std::get<2>(c)) + "[" +
         std::to_string(std::get<3>(c)) + "]";
}

NodeIndex model_walk(const Topology& t, const std::vector<std::uint8_t>& hops) {
  NodeIndex n = t.sm_node;
  for (std::size_t i = 0; i < hops.size(); ++i) {
    const Node& node = t.node(n);
    if (i > 0 && !node.is_switch()) return kNoNode;
    if (hops[i] == 0 || hops[i] > node.num_ports || !node.ports[hops[i]].connected()) return kNoNode;
    n = node.ports[hops[i]].peer;
  }
  return n;
}

std::string compare_with_full(SweepRig& rig, const ObservedFabric& got) {
  std::ostringstream out;
  ObservedFabric full = discover_fabric(rig.batch);
  for (const auto& p : full.problems) out << "(full discovery problem: " << p.to_string() << ")\n";
  const auto g1 = guids(*got.topo), g2 = guids(*full.topo);
  for (Guid g : g1)
    if (!g2.contains(g)) out << "node " << format_guid(g) << " kept but a full discovery does not find it\n";
  for (Guid g : g2)
    if (!g1.contains(g)) out << "node " << format_guid(g) << " missing (a full discovery finds it)\n";
  const auto c1 = cables(*got.topo), c2 = cables(*full.topo);
  for (const Cable& c : c1)
    if (!c2.contains(c)) out << "cable " << str(c) << " kept but a full discovery does not find it\n";
  for (const Cable& c : c2)
    if (!c1.contains(c)) out << "cable " << str(c) << " missing (a full discovery finds it)\n";
  for (const auto& p : got.problems) out << "problem in result: " << p.to_string() << "\n";
  const Topology& t = *got.topo;
  if (got.nodes.size() != t.size()) out << "per-node records misaligned\n";
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (model_walk(t, node.dr_path) != n)
      out << describe_node(node) << ": dr_path " << format_dr_path(node.dr_path)
          << " does not lead to it in the model\n";
  }
  test::probe_kept_paths(rig.batch, got, [&](const test::KeptPath& k, const mad::SmpReply& r) {
    const Node& node = t.node(k.node);
    if (r.outcome != mad::SmpOutcome::kOk) {
      out << describe_node(node) << ": NodeInfo via " << k.path.to_string() << " did not answer\n";
      return;
    }
    const auto ni = mad::NodeInfo::decode(r.data);
    if (ni.node_guid != node.guid)
      out << describe_node(node) << ": path " << k.path.to_string() << " leads to " << format_guid(ni.node_guid)
          << "\n";
    else if (k.port != 0 && ni.local_port_num != k.port)
      out << describe_node(node) << ": port path " << k.path.to_string() << " arrives at port "
          << int(ni.local_port_num) << ", not " << int(k.port) << "\n";
  });
  return out.str();
}

void expect_named_fallback(const IncrementalDiscovery& r) {
  EXPECT_FALSE(r.full_sweep_because().empty());
  EXPECT_NE(r.full_sweep_because().find("0x"), std::string::npos) << r.full_sweep_because();
  EXPECT_NE(r.full_sweep_because().find("DR path"), std::string::npos) << r.full_sweep_because();
}

void expect_correct(SweepRig& rig, const IncrementalDiscovery& r) {
  if (r.ok()) {
    EXPECT_EQ(compare_with_full(rig, r.fabric), "");
  } else {
    expect_named_fallback(r);
  }
}

void clear_psc(SweepRig& rig) {
  ObservedFabric full = discover_fabric(rig.batch);
  for (NodeIndex s : full.topo->switches()) {
    auto si = *full.nodes[s].switch_info;
    si.port_state_change = true;
    mad::SmpRequest req;
    req.path = mad::DrPath(full.topo->node(s).dr_path);
    req.method = mad::Method::kSet;
    req.attr_id = mad::attr::kSwitchInfo;
    si.encode(req.data);
    rig.batch.submit(req, [](const mad::SmpReply&) {});
  }
  rig.batch.wait();
}

void disconnect(Topology& t, NodeIndex n, PortNum p) {
  Port& x = t.mutable_node(n).ports[p];
  if (!x.connected()) return;
  Port& y = t.mutable_node(x.peer).ports[x.peer_port];
  y.peer = kNoNode;
  y.peer_port = 0;
  x.peer = kNoNode;
  x.peer_port = 0;
}

void move_cable(SweepRig& rig, NodeIndex a, PortNum pa, NodeIndex c, PortNum pc) {
  rig.fabric.unlink(a, pa);
  disconnect(rig.topo, a, pa);
  ASSERT_TRUE(rig.topo.connect(a, pa, c, pc).ok());
  rig.fabric.relink(a, pa);
}

void swap_far_ends(SweepRig& rig, NodeIndex a, PortNum pa, NodeIndex c, PortNum pc) {
  const NodeIndex b = rig.topo.node(a).ports[pa].peer, d = rig.topo.node(c).ports[pc].peer;
  const PortNum pb = rig.topo.node(a).ports[pa].peer_port, pd = rig.topo.node(c).ports[pc].peer_port;
  rig.fabric.unlink(a, pa);
  rig.fabric.unlink(c, pc);
  disconnect(rig.topo, a, pa);
  disconnect(rig.topo, c, pc);
  ASSERT_TRUE(rig.topo.connect(a, pa, d, pd).ok());
  ASSERT_TRUE(rig.topo.connect(c, pc, b, pb).ok());
  rig.fabric.relink(a, pa);
  rig.fabric.relink(c, pc);
}

NodeIndex by_name(const Topology& t, const std::string& name) {
  for (NodeIndex n = 0; n < t.size(); ++n)
    if (t.node(n).description == name) return n;
  ADD_FAILURE() << "no node " << name;
  return kNoNode;
}

PortNum switch_port(const Topology& t, NodeIndex s, PortNum from) {
  for (PortNum p = from; p <= t.node(s).num_ports; ++p) {
    const Port& port = t.node(s).ports[p];
    if (port.connected() && t.node(port.peer).is_switch()) return p;
  }
  return 0;
}

}  // namespace smd::test
