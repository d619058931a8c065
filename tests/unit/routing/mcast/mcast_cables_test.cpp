// for_each_tree_cable / mcast_cable: which tree ports are switch-to-switch cables, and one id per cable
// whichever end names it; checked against the cabling make_two_switch lays out.
#include "routing/mcast/mcast_cables.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"

namespace smd::mcast_cables_test {
namespace {

TEST(McastCables, VisitsOnlySwitchCablesAndNamesEachCableOnce) {
  // make_two_switch(2, 2): sw-0 (node 4) and sw-1 (node 5) joined at ports 1 and 2; hosts on ports 3, 4.
  const Topology t = make_two_switch(2, 2).value();
  const SwitchGraph g = SwitchGraph::build(t);
  McastTree tree;
  McastPortMask a, b;
  for (PortNum p : {0, 1, 2, 3, 4}) a.set(p);  // port 0, both cables, both hosts
  b.set(2);                                    // one cable only
  tree.switches = {{t.node(4).guid, a}, {t.node(5).guid, b}, {0xdead, a}};  // a GUID not in the fabric
  std::vector<std::tuple<SwitchIndex, PortNum, std::uint32_t>> seen;
  for_each_tree_cable(t, g, tree, [&](SwitchIndex s, PortNum p, std::uint32_t c) { seen.emplace_back(s, p, c); });
  ASSERT_EQ(seen.size(), 3u);  // sw-0 ports 1 and 2, sw-1 port 2
  const SwitchIndex s0 = g.index_of(4), s1 = g.index_of(5);
  EXPECT_EQ(seen[0], std::make_tuple(s0, PortNum{1}, mcast_cable(g, s0, 1)));
  EXPECT_EQ(seen[1], std::make_tuple(s0, PortNum{2}, mcast_cable(g, s0, 2)));
  EXPECT_EQ(seen[2], std::make_tuple(s1, PortNum{2}, mcast_cable(g, s1, 2)));
  // Both ends of the port-2 cable give one id, the lower slot; the two cables differ.
  EXPECT_EQ(std::get<2>(seen[1]), std::get<2>(seen[2]));
  EXPECT_EQ(std::get<2>(seen[1]), std::min(g.slot(s0, 2), g.slot(s1, 2)));
  EXPECT_NE(std::get<2>(seen[0]), std::get<2>(seen[1]));
}

}  // namespace
}  // namespace smd::mcast_cables_test
