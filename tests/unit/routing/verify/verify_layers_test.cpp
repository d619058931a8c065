// verify_tables on VL-layered tables and verify_sl2vl_layers: a hand-built Clos whose single-VL graph
// has a cycle that two routes moved to layer 1 break, with every figure counted by hand.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <tuple>

#include "tests/unit/routing/hand_node.h"
#include "routing/quality/report.h"
#include "routing/verify/sl2vl_verify.h"
#include "routing/verify/verify.h"

namespace smd::verify_layers_test {
namespace {

using test::make_node;

/// 2 leaves x 2 spines x 2 hosts per leaf; leaf ports 1,2 hosts, 3 spine0, 4 spine1; spine port 1 leaf0,
/// 2 leaf1. LIDs: hosts 1..4, leaf0 5, leaf1 6, spine0 7, spine1 8. spine1 reaches spine0 via leaf1 and
/// spine0 reaches spine1 via leaf0: on one VL the cycle leaf0[4] -> spine1[2] -> leaf1[3] -> spine0[1]
/// -> leaf0[4], closed only by the two spine-to-spine routes.
struct LayeredClos {
  Topology t;
  LidMap lids;
  RoutingTables r;
  NodeIndex h[4], leaf[2], spine[2];
  LayeredClos() {
    for (int i = 0; i < 4; ++i) h[i] = t.add_node(make_node(NodeType::kCa, 1, 0x100 + i)).value();
    for (int i = 0; i < 2; ++i) leaf[i] = t.add_node(make_node(NodeType::kSwitch, 4, 0x200 + i)).value();
    for (int i = 0; i < 2; ++i) spine[i] = t.add_node(make_node(NodeType::kSwitch, 2, 0x300 + i)).value();
    t.mutable_node(spine[1]).dr_path = {4};
    t.mutable_node(spine[1]).description = "spine1";
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(t.connect(leaf[i / 2], 1 + i % 2, h[i], 1).ok());
    for (int l = 0; l < 2; ++l) {
      for (int s = 0; s < 2; ++s) EXPECT_TRUE(t.connect(leaf[l], 3 + s, spine[s], 1 + l).ok());
    }
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(lids.assign(h[i], 1, static_cast<Lid>(1 + i), 0).ok());
    for (int i = 0; i < 2; ++i) EXPECT_TRUE(lids.assign(leaf[i], 0, static_cast<Lid>(5 + i), 0).ok());
    for (int i = 0; i < 2; ++i) EXPECT_TRUE(lids.assign(spine[i], 0, static_cast<Lid>(7 + i), 0).ok());
    r.engine = "hand";
    r.deadlock_free = true;
    r.lft.resize(t.size());
    set(leaf[0], {1, 2, 3, 4, 0, 3, 3, 4});
    set(leaf[1], {3, 4, 1, 2, 4, 0, 3, 4});
    set(spine[0], {1, 1, 2, 2, 1, 2, 0, 1});
    set(spine[1], {1, 1, 2, 2, 1, 2, 2, 0});
  }
  void set(NodeIndex sw, std::vector<PortNum> ports) {
    Lft lft(8);
    for (std::size_t i = 0; i < ports.size(); ++i) lft.set(static_cast<Lid>(i + 1), ports[i]);
    r.lft[sw] = lft;
  }
  /// Layer 1: spine1 -> spine0 (LID 7) and spine0 -> spine1 (LID 8); everything else layer 0.
  void layer_spine_routes() {
    auto l = std::make_shared<VlLayering>(t, lids.max_lid());
    l->set(spine[1], 7, 1);
    l->set(spine[0], 8, 1);
    r.layering = l;
  }
};

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

TEST(VerifyLayers, SingleVlCycleIsRefusedWithoutLayering) {
  LayeredClos c;
  auto v = verify_tables(c.t, c.lids, c.r, false);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(v->deadlock_free);
  EXPECT_FALSE(v->layered);
  EXPECT_EQ(v->layers, 1u);
  ASSERT_EQ(v->layer_cdg.size(), 1u);
  EXPECT_EQ(v->layer_cdg[0].routes, 32u);
  EXPECT_FALSE(v->layer_cdg[0].acyclic);
  EXPECT_FALSE(verify_tables(c.t, c.lids, c.r, true).ok());
}

TEST(VerifyLayers, SpineRoutesOnLayerOneBreakTheCycle) {
  LayeredClos c;
  c.layer_spine_routes();
  auto v = verify_tables(c.t, c.lids, c.r, true);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_TRUE(v->layered);
  EXPECT_TRUE(v->deadlock_free);
  EXPECT_TRUE(v->ca_deadlock_free);
  EXPECT_FALSE(v->single_vl_deadlock_free);
  EXPECT_EQ(v->layers, 2u);
  ASSERT_EQ(v->layer_cdg.size(), 2u);
  EXPECT_EQ(v->layer_cdg[0].routes, 30u);
  EXPECT_EQ(v->layer_cdg[1].routes, 2u);
  // Layer 1: spine1[2] -> leaf1[3] (spine1 to LID 7) and spine0[1] -> leaf0[4] (spine0 to LID 8). The
  // hop leaf1[3] belongs to layer 1 here although leaf1's own route to LID 7 is on layer 0.
  EXPECT_EQ(v->layer_cdg[1].channels, 2u);
  EXPECT_EQ(v->layer_cdg[1].edges, 2u);
  EXPECT_TRUE(v->layer_cdg[1].acyclic);
  EXPECT_TRUE(v->layer_cdg[0].acyclic);
  // The single-VL graph has both of those edges too, plus layer 0's.
  EXPECT_EQ(v->cdg_edges, v->layer_cdg[0].edges + 2u);
}

TEST(VerifyLayers, CyclicLayerNamesTheLayerAndAChannel) {
  LayeredClos c;
  auto l = std::make_shared<VlLayering>(c.t, c.lids.max_lid());
  l->set(c.leaf[0], 1, 2);  // a host route on layer 2 (one hop: no dependency), layer 1 empty
  c.r.layering = l;
  auto v = verify_tables(c.t, c.lids, c.r, false);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(v->deadlock_free);
  ASSERT_EQ(v->layer_cdg.size(), 3u);
  EXPECT_FALSE(v->layer_cdg[0].acyclic);
  EXPECT_EQ(v->layer_cdg[1].routes, 0u);
  EXPECT_TRUE(v->layer_cdg[1].acyclic);
  EXPECT_EQ(v->layer_cdg[2].routes, 1u);
  EXPECT_EQ(v->layer_cdg[2].edges, 0u);
  auto bad = verify_tables(c.t, c.lids, c.r, true);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kVerifyFailed);
  const std::string& m = bad.error().message;
  EXPECT_TRUE(contains(m, "layer 0")) << m;
  EXPECT_TRUE(contains(m, "out port")) << m;
  EXPECT_TRUE(contains(m, "(DR ")) << m;
}

TEST(VerifyLayers, LayeringMustCoverEveryLid) {
  LayeredClos c;
  c.r.layering = std::make_shared<VlLayering>(c.t, Lid{7});
  auto v = verify_tables(c.t, c.lids, c.r, false);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().code, ErrorCode::kVerifyFailed);
  EXPECT_TRUE(contains(v.error().message, "0x0008")) << v.error().message;
}

/// SL i -> VL i everywhere, except the (node, in, out) entries listed in `broken`.
class HandSl2Vl : public Sl2VlLookup {
 public:
  std::map<std::tuple<NodeIndex, PortNum, PortNum>, std::pair<std::uint8_t, std::uint8_t>> broken;  // -> (SL, VL)
  mutable std::uint64_t calls = 0;
  Sl2Vl table(NodeIndex node, PortNum in, PortNum out) const override {
    ++calls;
    Sl2Vl t{};
    for (unsigned i = 0; i < 16; ++i) t[i] = static_cast<std::uint8_t>(i);
    auto it = broken.find({node, in, out});
    if (it != broken.end()) t[it->second.first] = it->second.second;
    return t;
  }
};

TEST(VerifySl2Vl, IdentityTablesKeepTheLayers) {
  LayeredClos c;
  HandSl2Vl lookup;
  EXPECT_TRUE(verify_sl2vl_layers(c.t, c.lids, c.r, lookup).ok());  // not layered: nothing to check
  EXPECT_EQ(lookup.calls, 0u);
  c.layer_spine_routes();
  auto st = verify_sl2vl_layers(c.t, c.lids, c.r, lookup);
  EXPECT_TRUE(st.ok()) << st.error().message;
  EXPECT_GT(lookup.calls, 0u);
}

TEST(VerifySl2Vl, SwitchOriginatedLayerOneHop) {
  LayeredClos c;
  c.layer_spine_routes();
  HandSl2Vl lookup;
  // spine1 own traffic out of port 2 on SL 1: only the route spine1 -> LID 7 (layer 1) uses it.
  lookup.broken[{c.spine[1], 0, 2}] = {1, 0};
  auto st = verify_sl2vl_layers(c.t, c.lids, c.r, lookup);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kVerifyFailed);
  const std::string& m = st.error().message;
  EXPECT_TRUE(contains(m, "switch 0x0000000000000301 \"spine1\" (DR 0,4) in port 0 out port 2")) << m;
  EXPECT_TRUE(contains(m, "maps SL 1 to VL 0 but the route's layer needs VL 1")) << m;
  EXPECT_TRUE(contains(m, "; 1 mismatching hops")) << m;
}

TEST(VerifySl2Vl, CaSourcePortCountsEveryRouteOfItsSwitch) {
  LayeredClos c;
  c.layer_spine_routes();
  HandSl2Vl lookup;
  // h0 sends on SL 0 through (h0, 0, 1) to LIDs 2, 3, 4, 6, 7, 8 (its own LID 1 and its switch's
  // LID 5 are not hops out of it): 6 routes of leaf0, all on layer 0.
  lookup.broken[{c.h[0], 0, 1}] = {0, 5};
  auto st = verify_sl2vl_layers(c.t, c.lids, c.r, lookup);
  ASSERT_FALSE(st.ok());
  const std::string& m = st.error().message;
  EXPECT_TRUE(contains(m, "CA 0x0000000000000100")) << m;
  EXPECT_TRUE(contains(m, "in port 0 out port 1 maps SL 0 to VL 5 but the route's layer needs VL 0")) << m;
  EXPECT_TRUE(contains(m, "; 6 mismatching hops")) << m;
}

TEST(VerifySl2Vl, TransitHopUsesTheArrivalPort) {
  LayeredClos c;
  c.layer_spine_routes();
  HandSl2Vl lookup;
  // Into leaf1 on port 3 (from spine0) and down port 1 to h2 (LID 3): routes leaf0 -> 3 and spine0 -> 3.
  lookup.broken[{c.leaf[1], 3, 1}] = {0, 3};
  auto st = verify_sl2vl_layers(c.t, c.lids, c.r, lookup);
  ASSERT_FALSE(st.ok());
  const std::string& m = st.error().message;
  EXPECT_TRUE(contains(m, "switch 0x0000000000000201")) << m;
  EXPECT_TRUE(contains(m, "in port 3 out port 1")) << m;
  EXPECT_TRUE(contains(m, "; 2 mismatching hops")) << m;
  // The same entry broken for SL 1 touches no route: layer 1 never enters leaf1 from spine0.
  lookup.broken[{c.leaf[1], 3, 1}] = {1, 3};
  EXPECT_TRUE(verify_sl2vl_layers(c.t, c.lids, c.r, lookup).ok());
}

TEST(QualityLayers, ReportCarriesTheVerifiersLayerFigures) {
  LayeredClos c;
  c.layer_spine_routes();
  auto l = std::make_shared<VlLayering>(*c.r.layering);
  l->set_vls_available(8);
  c.r.layering = l;
  QualityOptions options;
  options.perm_seeds = 1;
  options.ebb_samples = 1;
  auto q = compute_quality(c.t, c.lids, c.r, options);  // runs the verifier itself
  ASSERT_TRUE(q.ok()) << q.error().message;
  EXPECT_TRUE(q->layered);
  EXPECT_EQ(q->layers, 2u);
  EXPECT_EQ(q->vls_available, 8u);
  EXPECT_TRUE(q->deadlock_free);
  ASSERT_EQ(q->layer_cdg.size(), 2u);
  EXPECT_EQ(q->layer_cdg[1], (LayerCdg{2, 2, 2, true, true}));
  c.r.layering.reset();
  q = compute_quality(c.t, c.lids, c.r, options);
  ASSERT_TRUE(q.ok()) << q.error().message;
  EXPECT_FALSE(q->layered);
  EXPECT_EQ(q->layers, 1u);
  EXPECT_EQ(q->vls_available, 0u);
  EXPECT_FALSE(q->deadlock_free);
}

}  // namespace
}  // namespace smd::verify_layers_test
