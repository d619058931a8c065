// dor: on a mesh every path corrects dimension 0 before dimension 1 (worked out by hand from the switch
// names, which carry the coordinates), every path is as short as the Manhattan distance, and the
// channel-dependency graph is acyclic (the test's own Kahn sort and the verifier agree); on a torus it is
// not, and dor does not claim it. Parallel cables share the CA LIDs as OpenSM's dor shares them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "routing/engines/dor/dor_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::dor_test {
namespace {

using testing::assign_test_lids;

RoutingTables dor(const Topology& topo, const LidMap& lids, const RoutingOptions& options = {}) {
  auto t = dor_factory().create(options)->compute(topo, lids);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
  return t.ok() ? std::move(t).value() : RoutingTables{};
}

NodeIndex by_name(const Topology& topo, const std::string& name) {
  for (NodeIndex i = 0; i < topo.size(); ++i) {
    if (topo.node(i).description == name) return i;
  }
  ADD_FAILURE() << "no node " << name;
  return 0;
}

/// The base LID of the first host cabled to switch `sw`.
Lid host_lid_on(const Topology& topo, const LidMap& lids, NodeIndex sw) {
  for (const Port& p : topo.node(sw).ports) {
    if (p.connected() && !topo.node(p.peer).is_switch()) return lids.base_lid(p.peer, p.peer_port);
  }
  ADD_FAILURE() << "no host on " << topo.node(sw).description;
  return 0;
}

/// The switches a walk visits, by name.
std::vector<std::string> path_names(const Topology& topo, const LidMap& lids, const RoutingTables& t,
                                    const std::string& from, Lid lid) {
  const auto r = testing::walk(topo, lids, t, by_name(topo, from), lid);
  EXPECT_EQ(r.error, "");
  std::vector<std::string> names;
  for (NodeIndex s : r.switches) names.push_back(topo.node(s).description);
  return names;
}

/// Coordinates from a name "sw-x-y-z".
std::vector<int> coords(const std::string& name) {
  std::vector<int> out;
  for (std::size_t at = name.find('-'); at != std::string::npos; at = name.find('-', at + 1)) {
    out.push_back(std::atoi(name.c_str() + at + 1));
  }
  return out;
}

TEST(Dor, Mesh3x3CornerToCornerCorrectsXThenY) {
  const Topology topo = make_mesh({3, 3}, 1).value();
  const LidMap lids = assign_test_lids(topo);
  const RoutingTables t = dor(topo, lids);
  EXPECT_EQ(t.engine, "dor");
  const Lid far = host_lid_on(topo, lids, by_name(topo, "sw-2-2"));
  EXPECT_EQ(path_names(topo, lids, t, "sw-0-0", far),
            (std::vector<std::string>{"sw-0-0", "sw-1-0", "sw-2-0", "sw-2-1", "sw-2-2"}));
  const Lid near = host_lid_on(topo, lids, by_name(topo, "sw-0-0"));
  EXPECT_EQ(path_names(topo, lids, t, "sw-2-2", near),
            (std::vector<std::string>{"sw-2-2", "sw-1-2", "sw-0-2", "sw-0-1", "sw-0-0"}));
  const Lid corner = host_lid_on(topo, lids, by_name(topo, "sw-2-0"));
  EXPECT_EQ(path_names(topo, lids, t, "sw-0-2", corner),
            (std::vector<std::string>{"sw-0-2", "sw-1-2", "sw-2-2", "sw-2-1", "sw-2-0"}));
}

// routing.dor.port_search_ordering_file (OpenSM's dimension-to-port map): every switch lists its dimension-1
// ports first, so every path corrects Y before X.
TEST(Dor, SearchOrderingFileSetsTheDimensionOrder) {
  const Topology topo = make_mesh({3, 3}, 1).value();
  const LidMap lids = assign_test_lids(topo);
  DorOptions options;
  for (NodeIndex s : topo.switches()) {
    const Node& node = topo.node(s);
    PortSearchOrder line{node.guid, {}};
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (port.connected() && topo.node(port.peer).is_switch() &&
          coords(topo.node(port.peer).description)[1] != coords(node.description)[1]) {
        line.ports.push_back(p);
      }
    }
    options.port_search_ordering.push_back(line);
  }
  RoutingOptions routing;
  routing.engines.set(options);
  const RoutingTables t = dor(topo, lids, routing);
  EXPECT_TRUE(t.notes.empty());
  const Lid far = host_lid_on(topo, lids, by_name(topo, "sw-2-2"));
  EXPECT_EQ(path_names(topo, lids, t, "sw-0-0", far),
            (std::vector<std::string>{"sw-0-0", "sw-0-1", "sw-0-2", "sw-1-2", "sw-2-2"}));
  const Lid corner = host_lid_on(topo, lids, by_name(topo, "sw-2-0"));
  EXPECT_EQ(path_names(topo, lids, t, "sw-0-2", corner),
            (std::vector<std::string>{"sw-0-2", "sw-0-1", "sw-0-0", "sw-1-0", "sw-2-0"}));
}

TEST(Dor, Mesh4x3x2EveryPathIsManhattanAndDimensionOrdered) {
  const Topology topo = make_mesh({4, 3, 2}, 2).value();
  const LidMap lids = assign_test_lids(topo);
  const RoutingTables t = dor(topo, lids);
  for (const auto& e : lids.entries()) {
    const NodeIndex owner = e.owner.node;
    const NodeIndex owner_sw = topo.node(owner).is_switch() ? owner : topo.node(owner).ports[e.owner.port].peer;
    const std::vector<int> to = coords(topo.node(owner_sw).description);
    for (NodeIndex s : topo.switches()) {
      const auto r = testing::walk(topo, lids, t, s, e.base);
      ASSERT_EQ(r.error, "");
      const std::vector<int> from = coords(topo.node(s).description);
      unsigned manhattan = 0;
      for (std::size_t d = 0; d < to.size(); ++d) manhattan += static_cast<unsigned>(std::abs(to[d] - from[d]));
      EXPECT_EQ(r.hops.size(), manhattan) << topo.node(s).description << " -> " << e.base;
      // The dimension each hop changes never decreases along the path.
      int last_dim = -1;
      for (std::size_t i = 0; i + 1 < r.switches.size(); ++i) {
        const auto a = coords(topo.node(r.switches[i]).description);
        const auto b = coords(topo.node(r.switches[i + 1]).description);
        int dim = 0;
        while (a[dim] == b[dim]) ++dim;
        EXPECT_GE(dim, last_dim) << topo.node(s).description << " -> " << e.base;
        last_dim = dim;
      }
    }
  }
}

TEST(Dor, MeshAndHypercubeAreDeadlockFreeTorusIsNot) {
  for (const auto& dims : std::vector<std::vector<unsigned>>{{3, 3}, {6, 6}, {2, 2, 2}, {3, 3, 3}}) {
    const Topology mesh = make_mesh(dims, 1).value();
    const LidMap lids = assign_test_lids(mesh);
    const RoutingTables t = dor(mesh, lids);
    EXPECT_FALSE(t.deadlock_free) << "dor promises nothing; the verifier tells";
    EXPECT_TRUE(testing::cdg_acyclic(mesh, lids, t)) << dims.size() << "-D mesh";
    auto v = verify_tables(mesh, lids, t, /*require_deadlock_free=*/true);
    ASSERT_TRUE(v.ok()) << v.error().message;
    EXPECT_TRUE(v->deadlock_free);
  }
  // A ring of 4 in every dimension: the shortest paths chain round each ring on one VL.
  const Topology torus = make_torus({4, 4}, 1).value();
  const LidMap lids = assign_test_lids(torus);
  const RoutingTables t = dor(torus, lids);
  EXPECT_FALSE(testing::cdg_acyclic(torus, lids, t));
  auto v = verify_tables(torus, lids, t, /*require_deadlock_free=*/false);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(v->deadlock_free);
  EXPECT_EQ(testing::check_all_reach(torus, lids, t), "");
}

TEST(Dor, ParallelCablesShareTheCaLidsSwitchLidsUncounted) {
  // sw-0 and sw-1 joined on ports 1 and 2; two hosts on each. LIDs: sw-0 1, sw-1 2, hosts 3..6 (3, 4 on
  // sw-0; 5, 6 on sw-1). From sw-0: LID 2 takes port 1 (no CA LID counted yet) and is not counted, LID 5
  // port 1, LID 6 port 2 (port 1 carries one CA LID).
  const Topology topo = make_two_switch(2, 2).value();
  const LidMap lids = assign_test_lids(topo);
  const RoutingTables t = dor(topo, lids);
  const NodeIndex sw0 = by_name(topo, "sw-0");
  EXPECT_EQ(t.lft[sw0].get(2), 1);
  EXPECT_EQ(t.lft[sw0].get(5), 1);
  EXPECT_EQ(t.lft[sw0].get(6), 2);
  EXPECT_EQ(t.lft[sw0].get(1), 0);
  EXPECT_EQ(t.lft[sw0].get(3), 3);
  EXPECT_EQ(t.lft[sw0].get(4), 4);
}

TEST(Dor, EmptyLidMapIsAnError) {
  const Topology topo = make_mesh({2, 2}, 1).value();
  auto t = dor_factory().create({})->compute(topo, LidMap{});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace smd::dor_test
