// nue: on a ring, a 4x4 torus, a random graph and a k-ary n-tree, with 1 VL and with 2, every switch reaches
// every LID, every route stays on its destination's layer, the layers are the round robin of the sorted
// destination LIDs, and each layer's channel-dependency graph is acyclic: by the verifier and by the test's
// own depth-first search over the channels the LFT walks take. A ring on one VL must take detours (its
// shortest paths close the ring), and a fabric whose searches meet an impasse is still routed through the
// escape paths (the engine says how many destinations took them).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "routing/engines/nue/nue_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::nue_test {
namespace {

using testing::assign_test_lids;

Result<RoutingTables> nue(const Topology& topo, const LidMap& lids, unsigned max_vls, std::uint8_t data_vls,
                          bool include_switches = false) {
  RoutingOptions options;
  options.data_vls = data_vls;
  NueOptions own;
  own.max_vls = max_vls;
  own.include_switches = include_switches;
  options.engines.set(own);
  return nue_factory().create(options)->compute(topo, lids);
}

/// true when the dependencies of `deps` close no cycle: a three-colour depth-first search.
bool acyclic_by_dfs(const std::map<testing::Channel, std::set<testing::Channel>>& deps) {
  enum Colour { kWhite, kGrey, kBlack };
  std::map<testing::Channel, Colour> colour;
  for (const auto& [c, after] : deps) colour[c] = kWhite;
  struct Frame {
    testing::Channel c;
    std::set<testing::Channel>::const_iterator next;
  };
  for (const auto& [start, unused] : deps) {
    if (colour[start] != kWhite) continue;
    std::vector<Frame> stack{{start, deps.at(start).begin()}};
    colour[start] = kGrey;
    while (!stack.empty()) {
      Frame& top = stack.back();
      const auto& after = deps.at(top.c);
      if (top.next == after.end()) {
        colour[top.c] = kBlack;
        stack.pop_back();
        continue;
      }
      const testing::Channel d = *top.next++;
      if (colour[d] == kGrey) return false;
      if (colour[d] == kWhite) {
        colour[d] = kGrey;
        stack.push_back({d, deps.at(d).begin()});
      }
    }
  }
  return true;
}

struct Walked {
  std::map<unsigned, std::map<testing::Channel, std::set<testing::Channel>>> deps;  ///< per layer
  std::size_t longest_detour = 0;  ///< most hops any route takes beyond the shortest
};

/// Walk every (switch, LID) route through the LFTs: each must deliver, and every switch on it must route the
/// LID on the same layer (the layer is the destination's); the dependencies go to the route's layer.
Walked walk_all(const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  Walked w;
  const auto dist = testing::switch_hops(topo);
  for (const auto& e : lids.entries()) {
    const NodeIndex to =
        topo.node(e.owner.node).is_switch() ? e.owner.node : topo.node(e.owner.node).ports[e.owner.port].peer;
    for (NodeIndex s : topo.switches()) {
      const auto r = testing::walk(topo, lids, t, s, e.base);
      EXPECT_EQ(r.error, "") << topo.node(s).description << " -> LID " << e.base;
      if (!r.error.empty()) continue;
      const unsigned layer = t.layering->layer_of(s, e.base);
      for (const NodeIndex on : r.switches) EXPECT_EQ(t.layering->layer_of(on, e.base), layer);
      auto& deps = w.deps[layer];
      for (std::size_t i = 0; i + 1 < r.hops.size(); ++i) deps[r.hops[i]].insert(r.hops[i + 1]);
      for (const auto& h : r.hops) deps[h];
      const std::size_t shortest = dist.at(s).at(to);
      if (r.hops.size() > shortest) w.longest_detour = std::max(w.longest_detour, r.hops.size() - shortest);
    }
  }
  return w;
}

/// Everything a nue result must hold with `vls` layers offered; returns what the walks found.
Walked expect_nue_sound(const Topology& topo, const LidMap& lids, const RoutingTables& t, unsigned vls,
                        bool include_switches = false) {
  EXPECT_EQ(t.engine, "nue");
  EXPECT_TRUE(t.deadlock_free);
  if (!t.layering) {
    ADD_FAILURE() << "no layering";
    return {};
  }
  EXPECT_EQ(t.layering->vls_available(), vls);
  EXPECT_LE(t.layering->layers(), vls);
  Walked w = walk_all(topo, lids, t);
  for (const auto& [layer, deps] : w.deps) EXPECT_TRUE(acyclic_by_dfs(deps)) << "layer " << layer;
  // The layers: CA LIDs (and switch LIDs with include_switches) in increasing order, round robin.
  std::vector<Lid> order;
  for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
    const auto owner = lids.owner(lid);
    if (!owner) continue;
    if (topo.node(owner->node).is_switch() && !include_switches) {
      EXPECT_EQ(t.layering->layer_of(topo.switches().front(), lid), 0u) << "switch LID " << lid;
      continue;
    }
    order.push_back(lid);
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    EXPECT_EQ(t.layering->layer_of(topo.switches().front(), order[i]), i % vls) << "LID " << order[i];
  }
  auto v = verify_tables(topo, lids, t, /*require_deadlock_free=*/true);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().message);
  if (v.ok()) {
    EXPECT_TRUE(v->deadlock_free);
    EXPECT_EQ(v->layers, t.layering->layers());
  }
  return w;
}

TEST(Nue, RingOnOneVlTakesDetoursAndStaysAcyclic) {
  const Topology ring = make_torus({6}, 2).value();
  const LidMap lids = assign_test_lids(ring);
  auto t = nue(ring, lids, 1, 1);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const Walked w = expect_nue_sound(ring, lids, *t, 1);
  EXPECT_EQ(t->layering->layers(), 1u);
  // Shortest paths on a ring of 6 close the ring in each direction on one VL: some route must go the long way.
  EXPECT_GT(w.longest_detour, 0u);
  EXPECT_TRUE(testing::cdg_acyclic(ring, lids, *t));
}

TEST(Nue, SmallFabricsWithOneAndTwoVls) {
  std::vector<std::pair<std::string, Topology>> fabrics;
  fabrics.emplace_back("ring of 8", make_torus({8}, 2).value());
  fabrics.emplace_back("4x4 torus", make_torus({4, 4}, 2).value());
  fabrics.emplace_back("random 16", make_random(16, 4, 2, 11).value());
  fabrics.emplace_back("4-ary 2-tree", make_kary_ntree(4, 2).value());
  for (const auto& [what, topo] : fabrics) {
    const LidMap lids = assign_test_lids(topo);
    for (unsigned vls : {1u, 2u}) {
      SCOPED_TRACE(what + ", " + std::to_string(vls) + " VLs");
      auto t = nue(topo, lids, vls, 8);
      ASSERT_TRUE(t.ok()) << t.error().message;
      const Walked w = expect_nue_sound(topo, lids, *t, vls);
      EXPECT_EQ(w.deps.size(), vls) << "every layer carries routes";
    }
  }
}

TEST(Nue, IncludeSwitchesSpreadsSwitchLids) {
  const Topology torus = make_torus({4, 4}, 1).value();
  const LidMap lids = assign_test_lids(torus);
  auto t = nue(torus, lids, 0, 4, /*include_switches=*/true);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_nue_sound(torus, lids, *t, 4, true);
  EXPECT_EQ(t->layering->layers(), 4u);
}

TEST(Nue, VlsAreCappedByTheFabric) {
  // max_vls 4 with QoS off: one data VL, so one layer, named in the layering's record.
  const Topology torus = make_torus({4, 4}, 2).value();
  const LidMap lids = assign_test_lids(torus);
  auto t = nue(torus, lids, 4, 1);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_nue_sound(torus, lids, *t, 1);
  EXPECT_EQ(t->layering->layers(), 1u);
}

TEST(Nue, ImpassesAreSolvedByEscapePaths) {
  // A random graph on one VL: some destinations' searches get stuck. Without the escape paths those
  // destinations would be left unreachable from some switches; with them every route delivers, acyclic.
  const Topology topo = make_random(24, 4, 1, 2).value();
  const LidMap lids = assign_test_lids(topo);
  auto t = nue(topo, lids, 1, 1);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_nue_sound(topo, lids, *t, 1);
  ASSERT_EQ(t->notes.size(), 1u);
  EXPECT_NE(t->notes[0].find("took their escape paths"), std::string::npos) << t->notes[0];
}

TEST(Nue, NoLidsIsInvalidInput) {
  const Topology ring = make_torus({4}, 1).value();
  auto t = nue(ring, LidMap{}, 1, 1);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace smd::nue_test
