// Minimal repair (routing/verify/repair.h): after a cable is lost, every route that did not cross it is kept
// exactly, the result still delivers and stays deadlock-free (verify_tables), and it changes far fewer
// LFT entries than programming a fresh engine run would.
#include "routing/verify/repair.h"

#include <gtest/gtest.h>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/verify/verify.h"

namespace smd::repair_test {
namespace {

// `topo` without the cable at (node, port): same nodes in the same order, every other cable kept.
Topology without_cable(const Topology& topo, NodeIndex cut_node, PortNum cut_port) {
  Topology out;
  for (const Node& n : topo.nodes()) {
    Node copy = n;
    for (Port& p : copy.ports) {
      p.peer = kNoNode;
      p.peer_port = 0;
    }
    EXPECT_TRUE(out.add_node(std::move(copy)).ok());
  }
  for (NodeIndex a = 0; a < topo.size(); ++a) {
    const Node& n = topo.node(a);
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      const Port& port = n.ports[p];
      if (!port.connected() || port.peer < a || (port.peer == a && port.peer_port < p)) continue;
      if ((a == cut_node && p == cut_port) || (port.peer == cut_node && port.peer_port == cut_port)) continue;
      EXPECT_TRUE(out.connect(a, p, port.peer, port.peer_port).ok());
    }
  }
  out.sm_node = topo.sm_node;
  out.sm_port = topo.sm_port;
  return out;
}

// Does the route from switch s to lid, on `topo` with `tables`, leave through (node, port)?
bool route_crosses(const Topology& topo, const RoutingTables& tables, NodeIndex s, Lid lid, NodeIndex cut_node,
                   PortNum cut_port) {
  const Port& cut = topo.node(cut_node).ports[cut_port];
  NodeIndex here = s;
  for (std::size_t hops = 0; hops <= topo.switches().size(); ++hops) {
    const PortNum out = tables.lft[here].get(lid);
    if (out == 0 || out == kNoPort) return false;
    if ((here == cut_node && out == cut_port) || (here == cut.peer && out == cut.peer_port)) return true;
    const Port& port = topo.node(here).ports[out];
    if (!topo.node(port.peer).is_switch()) return false;
    here = port.peer;
  }
  return false;
}

struct Case {
  Topology before;
  LidMap lids;
  RoutingTables previous;
};

Case routed_tree() {
  Case c{make_kary_ntree(4, 3).value(), {}, {}};
  c.lids = assign_lids(c.before, {}, {}).value();
  c.previous = route_with_chain({"ftree", "updn"}, {}, c.before, c.lids).value().tables;
  return c;
}

TEST(Repair, KeepsEveryRouteThatAvoidedTheLostCableAndStaysVerified) {
  Case c = routed_tree();
  // The first leaf's first up-link (leaf ports 1..4 go to hosts, 5..8 up on a 4-ary tree).
  const NodeIndex leaf = c.before.switches().front();
  const PortNum up = 5;
  ASSERT_TRUE(c.before.node(c.before.node(leaf).ports[up].peer).is_switch());
  const Topology now = without_cable(c.before, leaf, up);
  ASSERT_FALSE(topology_gained_links(c.before, now));
  ASSERT_TRUE(topology_gained_links(now, c.before));

  auto fresh = route_with_chain({"ftree", "updn"}, {}, now, c.lids);
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  RepairStats stats;
  const RoutingTables repaired = repair_tables(c.before, c.previous, now, c.lids, fresh->tables, stats);
  auto v = verify_tables(now, c.lids, repaired, false);
  ASSERT_TRUE(v.ok()) << v.error().message;
  // Without its up-link the leaf's pod is no longer a fat tree (ftree declines); CA-injected traffic
  // stays deadlock-free, a cut-off switch's own traffic may need a down-up turn.
  EXPECT_TRUE(v->ca_deadlock_free);

  std::size_t crossing = 0, changed_repair = 0, changed_fresh = 0;
  for (NodeIndex s : now.switches()) {
    for (Lid lid = 1; lid <= c.lids.max_lid(); ++lid) {
      const bool crossed = route_crosses(c.before, c.previous, s, lid, leaf, up);
      crossing += crossed;
      if (!crossed) {
        EXPECT_EQ(repaired.lft[s].get(lid), c.previous.lft[s].get(lid)) << "switch " << s << " LID " << lid;
      }
      changed_repair += repaired.lft[s].get(lid) != c.previous.lft[s].get(lid);
      changed_fresh += fresh->tables.lft[s].get(lid) != c.previous.lft[s].get(lid);
    }
  }
  EXPECT_GT(crossing, 0u);
  EXPECT_LE(changed_repair, crossing);  // only routes that used the lost cable may change
  EXPECT_EQ(stats.entries_repaired, crossing);
  EXPECT_LT(changed_repair, changed_fresh);
}

TEST(Repair, NothingLostMeansNothingChanged) {
  Case c = routed_tree();
  RepairStats stats;
  const RoutingTables same = repair_tables(c.before, c.previous, c.before, c.lids, c.previous, stats);
  EXPECT_EQ(stats.entries_repaired, 0u);
  EXPECT_EQ(stats.lids_touched, 0u);
  for (NodeIndex s : c.before.switches()) EXPECT_EQ(same.lft[s], c.previous.lft[s]);
  EXPECT_FALSE(topology_gained_links(c.before, c.before));
}

}  // namespace
}  // namespace smd::repair_test
