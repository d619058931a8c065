// lash: every route is as short as the test's own BFS distance, the routes to one switch share a layer
// (the SL is per switch pair), each layer's channel-dependency graph is acyclic (the test's own Kahn
// sort) while one VL would not be, a ring needs exactly 2 layers, and a fabric with fewer VLs than the
// layering needs is declined with the numbers named.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "routing/engines/lash/lash_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::lash_test {
namespace {

using testing::assign_test_lids;

RoutingOptions with_vls(std::uint8_t data_vls) {
  RoutingOptions o;
  o.data_vls = data_vls;
  return o;
}

Result<RoutingTables> lash(const Topology& topo, const LidMap& lids, const RoutingOptions& options) {
  return lash_factory().create(options)->compute(topo, lids);
}

NodeIndex owner_switch(const Topology& topo, const LidOwner& owner) {
  return topo.node(owner.node).is_switch() ? owner.node : topo.node(owner.node).ports[owner.port].peer;
}

/// Everything a lash result must hold; returns the layers it uses.
unsigned expect_lash_sound(const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  EXPECT_EQ(t.engine, "lash");
  EXPECT_TRUE(t.deadlock_free);
  if (!t.layering) {
    ADD_FAILURE() << "no layering";
    return 0;
  }
  const auto dist = testing::switch_hops(topo);
  for (const auto& e : lids.entries()) {
    const NodeIndex to = owner_switch(topo, e.owner);
    for (NodeIndex s : topo.switches()) {
      const auto r = testing::walk(topo, lids, t, s, e.base);
      EXPECT_EQ(r.error, "") << topo.node(s).description << " -> " << e.base;
      EXPECT_EQ(r.hops.size(), dist.at(s).at(to)) << topo.node(s).description << " -> " << e.base;
    }
  }
  // One SL per switch pair: every LID behind one switch is on the layer of that switch's own LID.
  for (const auto& e : lids.entries()) {
    const NodeIndex to = owner_switch(topo, e.owner);
    const Lid switch_lid = lids.base_lid(to, 0);
    for (NodeIndex s : topo.switches()) {
      EXPECT_EQ(t.layering->layer_of(s, e.base), t.layering->layer_of(s, switch_lid));
    }
  }
  std::set<unsigned> seen;
  EXPECT_TRUE(testing::every_layer_acyclic(topo, lids, t, &seen));
  auto v = verify_tables(topo, lids, t, /*require_deadlock_free=*/true);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().message);
  if (v.ok()) {
    EXPECT_EQ(v->layers, t.layering->layers());
  }
  return static_cast<unsigned>(seen.size());
}

TEST(Lash, RingsOfFourToSixNeedTwoLayers) {
  for (unsigned n : {4u, 5u, 6u}) {
    const Topology ring = make_torus({n}, 2).value();
    const LidMap lids = assign_test_lids(ring);
    auto t = lash(ring, lids, with_vls(8));
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(expect_lash_sound(ring, lids, *t), 2u) << "ring of " << n;
    EXPECT_EQ(t->layering->layers(), 2u) << "ring of " << n;
    // The same LFTs on one VL close the ring: the second layer is needed.
    EXPECT_FALSE(testing::cdg_acyclic(ring, lids, *t)) << "ring of " << n;
  }
}

TEST(Lash, RingOfThreeNeedsOneLayer) {
  // Every shortest path is one hop: no dependencies at all.
  const Topology ring = make_torus({3}, 1).value();
  const LidMap lids = assign_test_lids(ring);
  auto t = lash(ring, lids, with_vls(1));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(expect_lash_sound(ring, lids, *t), 1u);
}

TEST(Lash, ToriMeshesAndRandomGraphsAreShortestAndDeadlockFree) {
  std::vector<Topology> fabrics;
  fabrics.push_back(make_torus({4, 4, 4}, 1).value());
  fabrics.push_back(make_torus({6, 6}, 2).value());
  fabrics.push_back(make_mesh({4, 4}, 2).value());
  fabrics.push_back(make_random(24, 4, 2, 7).value());
  for (const Topology& topo : fabrics) {
    const LidMap lids = assign_test_lids(topo);
    auto t = lash(topo, lids, with_vls(15));
    ASSERT_TRUE(t.ok()) << t.error().message;
    const unsigned layers = expect_lash_sound(topo, lids, *t);
    EXPECT_LE(layers, 15u);
    std::printf("%zu switches: %u layers\n", topo.switches().size(), layers);
  }
}

TEST(Lash, TooFewVlsIsDeclinedNamingTheLayers) {
  const Topology ring = make_torus({5}, 1).value();
  const LidMap lids = assign_test_lids(ring);
  auto t = lash(ring, lids, with_vls(1));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeclined);
  EXPECT_EQ(t.error().message,
            "needs 2 virtual layers, the fabric offers 1 data VL (qos.enabled is off or the QoS policy allows 1 VL)");
  LashOptions capped;
  capped.max_vls = 1;
  RoutingOptions options = with_vls(8);
  options.engines.set(capped);
  auto c = lash(ring, lids, options);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "needs 2 virtual layers, the fabric offers 1 data VL (routing.lash.max_vls is 1)");
}

TEST(Lash, SpreadVlsKeepsEveryLayerAcyclic) {
  const Topology ring = make_torus({6}, 2).value();
  const LidMap lids = assign_test_lids(ring);
  LashOptions spread;
  spread.spread_vls = true;
  RoutingOptions options = with_vls(4);
  options.engines.set(spread);
  auto t = lash(ring, lids, options);
  ASSERT_TRUE(t.ok()) << t.error().message;
  std::set<unsigned> seen;
  EXPECT_TRUE(testing::every_layer_acyclic(ring, lids, *t, &seen));
  EXPECT_EQ(seen.size(), 4u) << "two layers spread over four VLs";
}

}  // namespace
}  // namespace smd::lash_test
