// The routing order (routing/engines/common/routing_order.h) and what it changes in minhop's, updn's,
// sssp's and dfsssp's tables, on a fabric small enough to route by hand: two leaves, two spines, four hosts per leaf.
// Expected values are worked out in the comments from the engines' documented rules (least-loaded
// equal-cost port, lowest port on ties), not read from the engines.
#include "routing/engines/common/routing_order.h"

#include <gtest/gtest.h>

#include "routing/engines/dfsssp/dfsssp_factory.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/engines/minhop/minhop_options.h"
#include "routing/engines/updn/updn_factory.h"
#include "routing/engines/updn/updn_options.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/hand_node.h"

namespace smd::routing_order_test {
namespace {

/// Leaf ports 1..4 = hosts, 5 = spine0, 6 = spine1; spine port 1 = leaf0, 2 = leaf1.
/// Hosts h0..h3 on leaf0, h4..h7 on leaf1. Node GUIDs: hosts 0x100+i (port GUID = node GUID + 0x10000),
/// leaves 0x200+l, spines 0x300+s. LIDs (LMC `lmc`): host i = (i+1) << lmc, then leaf0, leaf1, spine0,
/// spine1 one each.
struct Clos {
  Topology t;
  NodeIndex h[8], leaf[2], spine[2];
  LidMap lids;

  explicit Clos(unsigned lmc = 0) {
    for (int i = 0; i < 8; ++i) {
      Node n = test::make_node(NodeType::kCa, 1, 0x100 + i);
      n.ports[1].guid = port_guid(i);
      h[i] = t.add_node(std::move(n)).value();
    }
    for (int l = 0; l < 2; ++l) {
      Node n = test::make_node(NodeType::kSwitch, 6, 0x200 + l);
      n.ports[0].guid = 0x200 + l;
      leaf[l] = t.add_node(std::move(n)).value();
    }
    for (int s = 0; s < 2; ++s) {
      Node n = test::make_node(NodeType::kSwitch, 2, 0x300 + s);
      n.ports[0].guid = 0x300 + s;
      spine[s] = t.add_node(std::move(n)).value();
    }
    for (int i = 0; i < 8; ++i) EXPECT_TRUE(t.connect(leaf[i / 4], 1 + i % 4, h[i], 1).ok());
    for (int l = 0; l < 2; ++l) {
      for (int s = 0; s < 2; ++s) EXPECT_TRUE(t.connect(leaf[l], 5 + s, spine[s], 1 + l).ok());
    }
    for (int i = 0; i < 8; ++i) {
      EXPECT_TRUE(lids.assign(h[i], 1, static_cast<Lid>((i + 1) << lmc), static_cast<std::uint8_t>(lmc)).ok());
    }
    Lid next = static_cast<Lid>(9 << lmc);
    for (NodeIndex sw : {leaf[0], leaf[1], spine[0], spine[1]}) EXPECT_TRUE(lids.assign(sw, 0, next++, 0).ok());
  }
  static Guid port_guid(int host) { return 0x10100 + static_cast<Guid>(host); }
  Lid host_lid(int i) const { return lids.base_lid(h[i], 1); }
};

TEST(DestinationOrder, WithoutAListEveryLidInIncreasingOrder) {
  const Clos c;
  const auto order = destination_order(c.t, c.lids, {});
  std::vector<Lid> expected;
  for (Lid l = 1; l <= 12; ++l) expected.push_back(l);
  EXPECT_EQ(order.lids, expected);
  EXPECT_TRUE(order.unknown.empty());
}

TEST(DestinationOrder, ListedPortsFirstThenTheRestByLidAndUnknownsNamed) {
  const Clos c;
  const std::vector<Guid> listed = {Clos::port_guid(5), 0xdead, Clos::port_guid(2), 0x201 /* leaf1's port 0 */};
  const auto order = destination_order(c.t, c.lids, listed);
  EXPECT_EQ(order.lids, (std::vector<Lid>{6, 3, 10, 1, 2, 4, 5, 7, 8, 9, 11, 12}));
  EXPECT_EQ(order.unknown, (std::vector<Guid>{0xdead}));
  EXPECT_EQ(unknown_order_note("minhop", order.unknown),
            "routing.minhop.guid_routing_order: 1 GUID names no port with a LID, skipped: 0x000000000000dead");
}

TEST(DestinationOrder, LmcLidsComeInRoundsAsOpenSmRoutesThem) {
  const Clos c(1);  // host i: LIDs 2i+2, 2i+3; switches 18..21 (one LID each)
  const auto order = destination_order(c.t, c.lids, std::vector<Guid>{Clos::port_guid(7), Clos::port_guid(0)});
  // Round 0: h7 (16), h0 (2), the others' base LIDs by LID, the switches; round 1: h7 (17), h0 (3), others.
  EXPECT_EQ(order.lids, (std::vector<Lid>{16, 2, 4, 6, 8, 10, 12, 14, 18, 19, 20, 21,  //
                                          17, 3, 5, 7, 9, 11, 13, 15}));
}

RoutingTables route_minhop(const Clos& c, std::vector<Guid> order) {
  RoutingOptions options;
  MinhopOptions minhop;
  minhop.guid_routing_order = std::move(order);
  options.engines.set(minhop);
  auto r = minhop_factory().create(options)->compute(c.t, c.lids);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : RoutingTables{};
}

/// leaf0's up-ports for h4..h7 (LIDs 5..8).
std::vector<PortNum> leaf0_ups(const Clos& c, const RoutingTables& r) {
  std::vector<PortNum> out;
  for (int i = 4; i < 8; ++i) out.push_back(r.lft[c.leaf[0]].get(c.host_lid(i)));
  return out;
}

TEST(MinhopRoutingOrder, ListedHostsTakeTheEmptyUpPortsFirst) {
  const Clos c;
  // Own order at leaf0: h0..h3 local, then h4 -> 5 (5 and 6 both empty, lowest wins), h5 -> 6, h6 -> 5,
  // h7 -> 6.
  EXPECT_EQ(leaf0_ups(c, route_minhop(c, {})), (std::vector<PortNum>{5, 6, 5, 6}));
  // Order h5, h6 first: h5 -> 5, h6 -> 6 (each on an empty port), then h4 -> 5 (1,1: lowest), h7 -> 6.
  const RoutingTables ordered = route_minhop(c, {Clos::port_guid(5), Clos::port_guid(6)});
  EXPECT_EQ(leaf0_ups(c, ordered), (std::vector<PortNum>{5, 5, 6, 6}));
  EXPECT_TRUE(ordered.notes.empty());
  // leaf1 routes leaf0's hosts in its own order either way: h0 -> 5, h1 -> 6, h2 -> 5, h3 -> 6.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(ordered.lft[c.leaf[1]].get(c.host_lid(i)), i % 2 == 0 ? 5 : 6) << i;
  // The tables are still complete and loop free.
  EXPECT_TRUE(verify_tables(c.t, c.lids, ordered, /*require_deadlock_free=*/false).ok());
}

TEST(MinhopRoutingOrder, UnknownGuidsAreNotedNotFatal) {
  const Clos c;
  const RoutingTables r = route_minhop(c, {0xbad, Clos::port_guid(5)});
  EXPECT_EQ(leaf0_ups(c, r), (std::vector<PortNum>{6, 5, 5, 6}));  // h5 -> 5, then h4 -> 6 (1,0), h6 -> 5, h7 -> 6
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("0x0000000000000bad"), std::string::npos) << r.notes[0];
}

RoutingTables route_updn(const Clos& c, std::vector<Guid> order) {
  RoutingOptions options;
  UpdnOptions updn;
  updn.guid_routing_order = std::move(order);
  options.engines.set(updn);
  auto r = updn_factory().create(options)->compute(c.t, c.lids);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : RoutingTables{};
}

TEST(UpdnRoutingOrder, ListedHostsTakeTheEmptyUpPortsFirstAndLeadTheCaOrder) {
  const Clos c;
  // updn's own CA order is (leaf, port): leaf0's hosts, then leaf1's; at leaf0 h4..h7 alternate 5, 6.
  EXPECT_EQ(leaf0_ups(c, route_updn(c, {})), (std::vector<PortNum>{5, 6, 5, 6}));
  const RoutingTables ordered = route_updn(c, {Clos::port_guid(5), Clos::port_guid(6)});
  EXPECT_EQ(leaf0_ups(c, ordered), (std::vector<PortNum>{5, 5, 6, 6}));
  ASSERT_GE(ordered.ca_order.size(), 2u);
  EXPECT_EQ(ordered.ca_order[0], c.h[5]);
  EXPECT_EQ(ordered.ca_order[1], c.h[6]);
  EXPECT_TRUE(ordered.deadlock_free);
  EXPECT_TRUE(verify_tables(c.t, c.lids, ordered, /*require_deadlock_free=*/true).ok());
}

template <class Options>
RoutingTables route_balanced(const Clos& c, std::vector<Guid> order) {
  RoutingOptions options;
  Options o;
  o.guid_routing_order = std::move(order);
  options.engines.set(o);
  auto engine = Options::kEngine == "sssp" ? sssp_factory().create(options) : dfsssp_factory().create(options);
  auto r = engine->compute(c.t, c.lids);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : RoutingTables{};
}

TEST(SsspRoutingOrder, ListedHostsFindTheUnloadedChannelsFirst) {
  const Clos c;
  // sssp: the loads that decide leaf0's up-port for a host of leaf1 are those of leaf0 -> spine and
  // spine -> leaf1, which only the LIDs of leaf1's hosts add to (4 sources each, all on leaf0). Equal
  // loads tie to the lower channel (port 5); a loaded path is 4 + 4 heavier. Own order h4..h7: 5, 6, 5, 6.
  EXPECT_EQ(leaf0_ups(c, route_balanced<SsspOptions>(c, {})), (std::vector<PortNum>{5, 6, 5, 6}));
  // h5, h6 first: h5 -> 5, h6 -> 6, then h4 ties -> 5, h7 -> 6.
  const RoutingTables ordered = route_balanced<SsspOptions>(c, {Clos::port_guid(5), Clos::port_guid(6), 0xbad});
  EXPECT_EQ(leaf0_ups(c, ordered), (std::vector<PortNum>{5, 5, 6, 6}));
  ASSERT_EQ(ordered.notes.size(), 1u);
  EXPECT_EQ(ordered.notes[0].rfind("routing.sssp.guid_routing_order: 1 GUID names no port", 0), 0u) << ordered.notes[0];
  EXPECT_TRUE(verify_tables(c.t, c.lids, ordered, /*require_deadlock_free=*/false).ok());
  // dfsssp takes the same paths and puts them on layers (one suffices on this tree).
  const RoutingTables layered = route_balanced<DfssspOptions>(c, {Clos::port_guid(5), Clos::port_guid(6)});
  EXPECT_EQ(leaf0_ups(c, layered), (std::vector<PortNum>{5, 5, 6, 6}));
  EXPECT_TRUE(layered.deadlock_free);
}

}  // namespace
}  // namespace smd::routing_order_test
