// sssp and dfsssp: every route delivers, each layer's channel-dependency graph is acyclic (checked here
// by walking the LFTs and a Kahn sort per layer, independent of the engine's own search), the layering is
// needed (one layer would be cyclic), the VLs available bound it, and the balanced paths carry less than
// minhop's under all-to-all traffic while staying near shortest.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <set>

#include "routing/chain/registry.h"
#include "routing/engines/common/vl_budget.h"
#include "routing/engines/dfsssp/dfsssp_factory.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/engines/updn/updn_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::dfsssp_test {
namespace {

using testing::assign_test_lids;
using testing::Channel;

RoutingOptions with_vls(std::uint8_t data_vls) {
  RoutingOptions o;
  o.data_vls = data_vls;
  return o;
}

Result<RoutingTables> dfsssp(const Topology& topo, const LidMap& lids, const RoutingOptions& opts) {
  return dfsssp_factory().create(opts)->compute(topo, lids);
}

/// Everything a layered result must satisfy; returns the layers it uses.
unsigned expect_layered_sound(const Topology& topo, const LidMap& lids, const RoutingTables& t, unsigned max_vls) {
  EXPECT_EQ(t.engine, "dfsssp");
  EXPECT_TRUE(t.deadlock_free);
  EXPECT_NE(t.layering, nullptr);
  if (!t.layering) return 0;
  EXPECT_GE(t.layering->max_lid(), lids.max_lid());
  EXPECT_EQ(testing::check_all_reach(topo, lids, t), "");
  auto v = verify_tables(topo, lids, t, /*require_deadlock_free=*/false);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().message);
  std::set<unsigned> seen;
  EXPECT_TRUE(testing::every_layer_acyclic(topo, lids, t, &seen));
  EXPECT_LE(t.layering->layers(), max_vls);
  EXPECT_FALSE(seen.empty());
  if (!seen.empty()) {
    EXPECT_EQ(*seen.rbegin() + 1, t.layering->layers());
  }
  return t.layering->layers();
}

struct AllToAll {
  unsigned max_load = 0;
  double mean_hops = 0;      ///< switch-to-switch cables per CA pair
  double mean_min_hops = 0;  ///< the same over BFS distances computed here
};

/// All ordered pairs of distinct CAs (base LIDs), traced through the LFTs.
AllToAll all_to_all(const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  std::vector<std::pair<NodeIndex, NodeIndex>> flows;
  for (NodeIndex a : topo.cas()) {
    for (NodeIndex b : topo.cas()) {
      if (a != b) flows.emplace_back(a, b);
    }
  }
  std::vector<std::vector<Channel>> paths;
  AllToAll out;
  for (const auto& [c, l] : testing::trace_loads(topo, lids, t, flows, &paths))
    out.max_load = std::max(out.max_load, l);
  auto dist = testing::switch_hops(topo);
  double hops = 0, min_hops = 0;
  for (std::size_t i = 0; i < flows.size(); ++i) {
    hops += static_cast<double>(paths[i].size());
    const NodeIndex sa = testing::endpoint(topo, lids, flows[i].first).sw;
    const NodeIndex sb = testing::endpoint(topo, lids, flows[i].second).sw;
    min_hops += dist[sa][sb];
  }
  out.mean_hops = hops / static_cast<double>(flows.size());
  out.mean_min_hops = min_hops / static_cast<double>(flows.size());
  return out;
}

TEST(Dfsssp, Torus6x6LayersAreAcyclicAndNeeded) {
  const Topology topo = make_torus({6, 6}, 4).value();
  const LidMap lids = assign_test_lids(topo);
  auto t = dfsssp(topo, lids, with_vls(8));
  ASSERT_TRUE(t.ok()) << t.error().message;
  const unsigned layers = expect_layered_sound(topo, lids, *t, 8);
  EXPECT_GE(layers, 2u);
  // The same LFTs on one VL: cyclic, so the layers do the work.
  EXPECT_FALSE(testing::cdg_acyclic(topo, lids, *t));
  std::printf("6x6 torus: %u layers\n", layers);
}

TEST(Dfsssp, Torus4x4x4LayersAreAcyclicAndNeeded) {
  const Topology topo = make_torus({4, 4, 4}, 4).value();
  const LidMap lids = assign_test_lids(topo);
  auto t = dfsssp(topo, lids, with_vls(8));
  ASSERT_TRUE(t.ok()) << t.error().message;
  const unsigned layers = expect_layered_sound(topo, lids, *t, 8);
  EXPECT_GE(layers, 2u);
  EXPECT_FALSE(testing::cdg_acyclic(topo, lids, *t));
  std::printf("4x4x4 torus: %u layers\n", layers);
}

TEST(Dfsssp, OneDataVlOnATorusDeclinesNamingBothNumbers) {
  const Topology topo = make_torus({6, 6}, 4).value();
  const LidMap lids = assign_test_lids(topo);
  auto layered = dfsssp(topo, lids, with_vls(8));
  ASSERT_TRUE(layered.ok());
  const unsigned needed = layered->layering->layers();
  auto t = dfsssp(topo, lids, with_vls(1));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeclined);
  EXPECT_EQ(t.error().message, "needs " + std::to_string(needed) +
                                   " virtual layers, the fabric offers 1 data VL (qos.enabled is off or the "
                                   "QoS policy allows 1 VL)");
}

TEST(Dfsssp, MaxVlsOptionCapsTheLayers) {
  const Topology topo = make_torus({6, 6}, 4).value();
  const LidMap lids = assign_test_lids(topo);
  RoutingOptions opts = with_vls(8);
  DfssspOptions d;
  d.max_vls = 1;
  opts.engines.set(d);
  auto t = dfsssp(topo, lids, opts);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeclined);
  EXPECT_NE(t.error().message.find("offers 1 data VL (routing.dfsssp.max_vls is 1)"), std::string::npos)
      << t.error().message;
}

TEST(Dfsssp, KaryNTreeNeedsOneLayerOnOneVl) {
  const Topology topo = make_kary_ntree(4, 3).value();
  const LidMap lids = assign_test_lids(topo);
  // Why dfsssp routes switch LIDs up*/down* where that saves layers: with sssp's own switch routes, host
  // traffic is acyclic (shortest fat-tree routes go up, then down) but the routes between top switches
  // turn down and up again and close cycles with the others.
  auto sssp = sssp_factory().create({})->compute(topo, lids);
  ASSERT_TRUE(sssp.ok());
  auto v = verify_tables(topo, lids, *sssp, false);
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->ca_deadlock_free);
  EXPECT_FALSE(v->deadlock_free);

  auto t = dfsssp(topo, lids, with_vls(1));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(expect_layered_sound(topo, lids, *t, 1), 1u);
  EXPECT_TRUE(testing::cdg_acyclic(topo, lids, *t));
  // One layer: the single-VL verifier, as the chain runs it, accepts the tables.
  auto full = verify_tables(topo, lids, *t, true);
  EXPECT_TRUE(full.ok()) << (full.ok() ? "" : full.error().message);
  auto chained = route_with_chain({"dfsssp"}, with_vls(1), topo, lids);
  ASSERT_TRUE(chained.ok()) << chained.error().message;
  EXPECT_EQ(chained->tables.engine, "dfsssp");
  // Host routes are sssp's: the same LFT entries for every CA LID.
  for (const auto& e : lids.entries()) {
    if (topo.node(e.owner.node).is_switch()) continue;
    for (NodeIndex s : topo.switches()) EXPECT_EQ(t->lft[s].get(e.base), sssp->lft[s].get(e.base));
  }
}

TEST(Dfsssp, SpareVlsSpreadTheRoutesAndStayAcyclic) {
  const Topology topo = make_torus({6, 6}, 4).value();
  const LidMap lids = assign_test_lids(topo);
  RoutingOptions opts = with_vls(8);
  DfssspOptions d;
  d.spread_vls = true;
  opts.engines.set(d);
  auto plain = dfsssp(topo, lids, with_vls(8));
  auto spread = dfsssp(topo, lids, opts);
  ASSERT_TRUE(plain.ok() && spread.ok());
  EXPECT_EQ(expect_layered_sound(topo, lids, *spread, 8), 8u);
  EXPECT_EQ(plain->lft, spread->lft);  // the paths do not change
}

TEST(Sssp, BalancesAllToAllBetterThanMinhopAndUpdnWithNearShortestPaths) {
  const Topology topo = make_torus({6, 6}, 4).value();
  const LidMap lids = assign_test_lids(topo);
  auto sssp = sssp_factory().create({})->compute(topo, lids);
  auto minhop = minhop_factory().create({})->compute(topo, lids);
  auto updn = updn_factory().create({})->compute(topo, lids);
  ASSERT_TRUE(sssp.ok() && minhop.ok() && updn.ok());
  EXPECT_EQ(sssp->engine, "sssp");
  EXPECT_FALSE(sssp->deadlock_free);
  EXPECT_EQ(sssp->layering, nullptr);
  EXPECT_EQ(testing::check_all_reach(topo, lids, *sssp), "");
  const AllToAll s = all_to_all(topo, lids, *sssp);
  const AllToAll m = all_to_all(topo, lids, *minhop);
  const AllToAll u = all_to_all(topo, lids, *updn);
  std::printf(
      "all-to-all max channel load: sssp %u, minhop %u, updn %u; mean hops sssp %.3f minhop %.3f "
      "updn %.3f shortest %.3f\n",
      s.max_load, m.max_load, u.max_load, s.mean_hops, m.mean_hops, u.mean_hops, s.mean_min_hops);
  // Effective bisection bandwidth (random bisections traced here): the figure the targets use.
  const double ebb_s = testing::ebb(topo, lids, *sssp, 40);
  const double ebb_m = testing::ebb(topo, lids, *minhop, 40);
  const double ebb_u = testing::ebb(topo, lids, *updn, 40);
  std::printf("eBB over 40 random bisections: sssp %.3f, minhop %.3f, updn %.3f\n", ebb_s, ebb_m, ebb_u);
  EXPECT_GT(ebb_s, ebb_u);
  EXPECT_LT(s.max_load, m.max_load);
  EXPECT_LT(s.max_load, u.max_load);
  EXPECT_LE(s.mean_hops, s.mean_min_hops * 1.02);
}

TEST(Sssp, LmcLidsOfOnePortTakeDifferentPaths) {
  const Topology topo = make_torus({6, 6}, 4).value();
  const LidMap lids = assign_test_lids(topo, 1);
  auto t = sssp_factory().create({})->compute(topo, lids);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(testing::check_all_reach(topo, lids, *t), "");
  unsigned pairs = 0, differ = 0;
  for (const auto& e : lids.entries()) {
    if (e.lmc != 1) continue;
    for (NodeIndex s : topo.switches()) {
      const auto a = testing::walk(topo, lids, *t, s, e.base);
      const auto b = testing::walk(topo, lids, *t, s, static_cast<Lid>(e.base + 1));
      if (a.hops.empty()) continue;  // the port's own switch
      ++pairs;
      differ += a.hops != b.hops;
    }
  }
  std::printf("LMC 1: %u of %u (switch, port) pairs take different paths\n", differ, pairs);
  // Many pairs have a single shortest path (neighbours, straight lines), so not all can differ.
  EXPECT_GT(differ * 3, pairs);
  // The layered engine handles the LMC LIDs as well.
  auto layered = dfsssp(topo, lids, with_vls(8));
  ASSERT_TRUE(layered.ok()) << layered.error().message;
  expect_layered_sound(topo, lids, *layered, 8);
}

/// Every port's VLCap set to `cap` (VLCap 4 = 8 data VLs).
void set_vl_caps(Topology& topo, std::uint8_t cap) {
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    for (Port& p : topo.mutable_node(n).ports) p.vl_cap = cap;
  }
}

/// The first switch-to-switch port of the first switch that has one.
std::pair<NodeIndex, PortNum> first_switch_link(const Topology& topo) {
  for (NodeIndex s : topo.switches()) {
    for (PortNum p = 1; p <= topo.node(s).num_ports; ++p) {
      const Port& port = topo.node(s).ports[p];
      if (port.connected() && topo.node(port.peer).is_switch()) return {s, p};
    }
  }
  return {kNoNode, 0};
}

TEST(Dfsssp, RandomGraphWithinThePortsVlCaps) {
  Topology topo = make_random(32, 4, 2, 7).value();
  const LidMap lids = assign_test_lids(topo);
  set_vl_caps(topo, 4);
  EXPECT_EQ(available_data_vls(topo, 15, 0, "routing.dfsssp.max_vls").vls, 8);
  auto eight = dfsssp(topo, lids, with_vls(15));
  ASSERT_TRUE(eight.ok()) << eight.error().message;
  const unsigned needed = expect_layered_sound(topo, lids, *eight, 8);
  EXPECT_FALSE(testing::cdg_acyclic(topo, lids, *eight));

  // One cable end at VLCap 2 (VL0-1) caps the whole fabric at 2 VLs; an unknown (0) far end does not lift it.
  const auto [sw, port] = first_switch_link(topo);
  ASSERT_NE(sw, kNoNode);
  topo.mutable_node(sw).ports[port].vl_cap = 2;
  const Port& far = topo.node(sw).ports[port];
  topo.mutable_node(far.peer).ports[far.peer_port].vl_cap = 0;
  const VlBudget budget = available_data_vls(topo, 15, 0, "routing.dfsssp.max_vls");
  EXPECT_EQ(budget.vls, 2);
  EXPECT_NE(budget.limit.find(format_guid(topo.node(sw).guid)), std::string::npos) << budget.limit;
  EXPECT_NE(budget.limit.find("port " + std::to_string(port) + " has VLCap 2"), std::string::npos) << budget.limit;
  auto two = dfsssp(topo, lids, with_vls(15));
  if (needed <= 2) {
    ASSERT_TRUE(two.ok()) << two.error().message;
    expect_layered_sound(topo, lids, *two, 2);
  } else {
    ASSERT_FALSE(two.ok());
    EXPECT_EQ(two.error().code, ErrorCode::kDeclined);
    EXPECT_NE(two.error().message.find("needs " + std::to_string(needed) +
                                       " virtual layers, the fabric offers 2 "
                                       "data VLs (switch "),
              std::string::npos)
        << two.error().message;
  }
  std::printf("random 32 switches degree 4: %u layers\n", needed);
}

TEST(Dfsssp, CaLinksLimitTheVlsToo) {
  // A host injects on the VL its own SL2VL gives the route's SL: a CA that operates 2 VLs (VLCap 2) caps
  // the layers as a switch link would, and the limit names it.
  Topology topo = make_torus({3, 3}, 2).value();
  set_vl_caps(topo, 4);
  EXPECT_EQ(available_data_vls(topo, 15, 0, "routing.dfsssp.max_vls").vls, 8);
  EXPECT_EQ(available_data_vls(topo, 4, 0, "routing.dfsssp.max_vls").vls, 4);
  EXPECT_EQ(available_data_vls(topo, 15, 3, "routing.dfsssp.max_vls").vls, 3);
  const NodeIndex host = topo.cas()[3];
  topo.mutable_node(host).ports[1].vl_cap = 2;
  const VlBudget capped = available_data_vls(topo, 15, 0, "routing.dfsssp.max_vls");
  EXPECT_EQ(capped.vls, 2);
  EXPECT_EQ(capped.limit, "CA " + describe_node(topo.node(host)) + " port 1 has VLCap 2 (2 VLs)");
  set_vl_caps(topo, 0);  // unknown everywhere: only the options limit
  EXPECT_EQ(available_data_vls(topo, 15, 0, "routing.dfsssp.max_vls").vls, 15);
}

TEST(Dfsssp, RegistryBuildsBothEngines) {
  const auto names = engine_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "dfsssp"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "sssp"), names.end());
  const auto factories = engine_factories();
  ASSERT_GE(factories.size(), 3u);
  // Registry order: ..., sssp, dfsssp, then file (the engine that computes nothing).
  EXPECT_EQ(factories[factories.size() - 3]->name(), "sssp");
  EXPECT_EQ(factories[factories.size() - 2]->name(), "dfsssp");
  auto d = make_engine("dfsssp", with_vls(8));
  auto s = make_engine("sssp", {});
  ASSERT_TRUE(d.ok() && s.ok());
  EXPECT_EQ((*d)->name(), "dfsssp");
  EXPECT_EQ((*s)->name(), "sssp");
  const Topology topo = make_kary_ntree(2, 2).value();
  const LidMap lids = assign_test_lids(topo);
  auto chained = route_with_chain({"dfsssp"}, with_vls(1), topo, lids);
  ASSERT_TRUE(chained.ok()) << chained.error().message;
  EXPECT_EQ(chained->tables.engine, "dfsssp");
  EXPECT_TRUE(chained->tables.deadlock_free);
  auto empty = (*d)->compute(topo, LidMap{});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code, ErrorCode::kInvalidInput);
}

// A measurement, not a check: run with --gtest_also_run_disabled_tests to print routing times.
TEST(Dfsssp, DISABLED_RoutingTimes) {
  struct Case {
    const char* name;
    Topology topo;
  };
  std::vector<Case> cases;
  cases.push_back({"6x6 torus, 4 hosts/switch", make_torus({6, 6}, 4).value()});
  cases.push_back({"4x4x4 torus, 4 hosts/switch", make_torus({4, 4, 4}, 4).value()});
  cases.push_back({"random 64 switches degree 6, 4 hosts/switch", make_random(64, 6, 4, 1).value()});
  cases.push_back({"random 128 switches degree 6, 4 hosts/switch", make_random(128, 6, 4, 1).value()});
  cases.push_back({"12-ary 3-tree (1728 hosts)", make_kary_ntree(12, 3).value()});
  for (const Case& c : cases) {
    const LidMap lids = assign_test_lids(c.topo);
    for (const char* engine : {"sssp", "dfsssp"}) {
      const auto start = std::chrono::steady_clock::now();
      auto t = make_engine(engine, with_vls(15)).value()->compute(c.topo, lids);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      ASSERT_TRUE(t.ok()) << t.error().message;
      std::printf("%s: %s %.1f ms, %u layers\n", c.name, engine, ms, t->layering ? t->layering->layers() : 1u);
    }
  }
}

}  // namespace
}  // namespace smd::dfsssp_test
