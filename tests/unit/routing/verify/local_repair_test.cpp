// Local repair (routing/verify/local_repair.h) and the per-LID route check it stands on
// (routing/verify/updown_check.h). The witnesses are the test-side walks and channel-dependency graphs of
// updn_ftree_checks.h and verify_tables, never the classification under test: after cables are lost,
// every repaired table set must deliver from every switch to every LID, keep host traffic deadlock-free,
// leave every LID whose routes avoided the lost cables exactly as it was, and change fewer entries than
// taking a fresh engine run would.
#include "routing/verify/local_repair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/isolation/cable_isolation.h"
#include "routing/lids/lid_assign.h"
#include "routing/model/vl_layers.h"
#include "routing/verify/updown_check.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::local_repair_test {
namespace {

using testing::cdg_acyclic;
using testing::check_all_reach;
using testing::walk;

struct Routed {
  Topology topo;
  LidMap lids;
  RoutingTables tables;
};

Routed routed(Topology topo) {
  Routed r{std::move(topo), {}, {}};
  r.lids = assign_lids(r.topo, {}, {}).value();
  r.tables = route_with_chain({"ftree", "updn"}, {}, r.topo, r.lids).value().tables;
  return r;
}

// Every switch-to-switch cable of `topo`, once, from its lower (node, port) end.
std::vector<CableEnd> switch_cables(const Topology& topo) {
  std::vector<CableEnd> out;
  for (NodeIndex s : topo.switches()) {
    const Node& n = topo.node(s);
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      const Port& port = n.ports[p];
      if (!port.connected() || !topo.node(port.peer).is_switch()) continue;
      if (CableEnd{port.peer, port.peer_port} < CableEnd{s, p}) continue;
      out.push_back({s, p});
    }
  }
  return out;
}

// `topo` without the given cables, whether or not that cuts anything off.
Topology cut(const Topology& topo, const std::vector<CableEnd>& ends) {
  std::vector<IsolationDecision> d;
  for (const CableEnd& e : ends) {
    const Port& p = topo.node(e.node).ports[e.port];
    d.push_back({e, {p.peer, p.peer_port}, true, ""});
  }
  return without_cables(topo, d);
}

// LIDs whose route from some switch, on `before` with `tables`, crosses one of `ends`' cables.
std::set<Lid> lids_crossing(const Routed& before, const std::vector<CableEnd>& ends) {
  std::set<std::pair<NodeIndex, PortNum>> channels;
  for (const CableEnd& e : ends) {
    const Port& p = before.topo.node(e.node).ports[e.port];
    channels.insert({e.node, e.port});
    channels.insert({p.peer, p.peer_port});
  }
  std::set<Lid> out;
  for (Lid lid = 1; lid <= before.lids.max_lid(); ++lid) {
    if (!before.lids.owner(lid)) continue;
    for (NodeIndex s : before.topo.switches()) {
      const auto r = walk(before.topo, before.lids, before.tables, s, lid);
      if (std::any_of(r.hops.begin(), r.hops.end(), [&](const auto& h) { return channels.contains(h); })) {
        out.insert(lid);
        break;
      }
    }
  }
  return out;
}

std::size_t entries_differing(const Topology& topo, const LidMap& lids, const RoutingTables& a,
                              const RoutingTables& b) {
  std::size_t n = 0;
  for (NodeIndex s : topo.switches()) {
    for (Lid lid = 1; lid <= lids.max_lid(); ++lid) n += a.lft[s].get(lid) != b.lft[s].get(lid) ? 1 : 0;
  }
  return n;
}

// Everything a repaired table set must be, checked by the test-side witnesses and verify_tables.
// Node indexes of `now` are those of before.topo (without_cables keeps them).
void expect_sound_repair(const Routed& before, const Topology& now, const std::vector<CableEnd>& ends,
                         const RoutingTables& repaired, const RepairStats& stats, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(check_all_reach(now, before.lids, repaired), "");
  EXPECT_TRUE(cdg_acyclic(now, before.lids, repaired, /*ca_sources_only=*/true));
  if (repaired.deadlock_free) {
    EXPECT_TRUE(cdg_acyclic(now, before.lids, repaired));
  }
  const auto verified = verify_tables(now, before.lids, repaired, false);
  ASSERT_TRUE(verified.ok()) << verified.error().message;
  EXPECT_TRUE(verified->ca_deadlock_free);
  // Untouched LIDs are exactly as they were; the stats count what changed.
  const std::set<Lid> crossing = lids_crossing(before, ends);
  std::set<Lid> changed_lids;
  for (NodeIndex s : now.switches()) {
    for (Lid lid = 1; lid <= before.lids.max_lid(); ++lid) {
      if (repaired.lft[s].get(lid) != before.tables.lft[s].get(lid)) changed_lids.insert(lid);
    }
  }
  for (Lid lid : changed_lids) EXPECT_TRUE(crossing.contains(lid)) << "LID " << lid << " changed needlessly";
  EXPECT_EQ(stats.entries_repaired, entries_differing(now, before.lids, repaired, before.tables));
  EXPECT_LE(stats.lids_touched, crossing.size());
  EXPECT_EQ(repaired.engine, before.tables.engine);
}

TEST(LocalRepair, NothingLostChangesNothing) {
  const Routed r = routed(make_kary_ntree(4, 3).value());
  RepairStats stats;
  const auto out = repair_locally(r.topo, r.tables, r.topo, r.lids, stats);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->lft, r.tables.lft);
  EXPECT_EQ(stats.entries_repaired, 0u);
  EXPECT_EQ(stats.lids_touched, 0u);
  std::size_t owned = 0;
  for (Lid lid = 1; lid <= r.lids.max_lid(); ++lid) owned += r.lids.owner(lid) ? 1 : 0;
  EXPECT_EQ(stats.entries_kept, r.topo.switches().size() * owned);
}

TEST(LocalRepair, EverySingleSwitchCableLossOnAFatTreeIsRepairedLocally) {
  const Routed r = routed(make_kary_ntree(4, 3).value());
  ASSERT_EQ(r.tables.engine, "ftree");
  const std::vector<CableEnd> cables = switch_cables(r.topo);
  ASSERT_EQ(cables.size(), 128u);  // 4-ary 3-tree: 16 leaves and 16 middle switches, 4 up-links each
  for (const CableEnd& c : cables) {
    const Topology now = cut(r.topo, {c});
    RepairStats stats;
    const auto out = repair_locally(r.topo, r.tables, now, r.lids, stats);
    const std::string what = r.topo.node(c.node).description + " port " + std::to_string(c.port);
    ASSERT_TRUE(out.ok()) << what << ": " << out.error().message;
    expect_sound_repair(r, now, {c}, *out, stats, what);
    EXPECT_GT(stats.entries_repaired, 0u) << what;
    // The purpose: far fewer writes than programming a fresh engine run on the fabric as it now is.
    const auto fresh = route_with_chain({"ftree", "updn"}, {}, now, r.lids).value().tables;
    EXPECT_LT(stats.entries_repaired, entries_differing(now, r.lids, fresh, r.tables)) << what;
  }
}

TEST(LocalRepair, RandomMultiCableLossesAreRepairedSoundlyOrDeclined) {
  LeafSpineSpec spec;
  spec.leaves = 6;
  spec.spines = 4;
  spec.hosts_per_leaf = 3;
  spec.links_per_pair = 2;
  const std::vector<Routed> fabrics = {routed(make_kary_ntree(4, 3).value()), routed(make_leaf_spine(spec).value())};
  std::mt19937_64 rng(20261204);
  std::size_t repaired = 0;
  std::size_t declined = 0;
  for (const Routed& r : fabrics) {
    const std::vector<CableEnd> cables = switch_cables(r.topo);
    for (int round = 0; round < 40; ++round) {
      std::vector<CableEnd> ends;
      std::sample(cables.begin(), cables.end(), std::back_inserter(ends), 1 + round % 4, rng);
      const Topology now = cut(r.topo, ends);
      RepairStats stats;
      const auto out = repair_locally(r.topo, r.tables, now, r.lids, stats);
      if (!out.ok()) {
        EXPECT_EQ(out.error().code, ErrorCode::kDeclined);
        EXPECT_TRUE(out.error().message.starts_with("local repair: ")) << out.error().message;
        ++declined;
        continue;
      }
      ++repaired;
      expect_sound_repair(r, now, ends, *out, stats, "round " + std::to_string(round));
    }
  }
  // Most random losses of up to four cables leave legal routes for every host; a repair that declined
  // everything would pass the checks above without doing its job.
  EXPECT_GT(repaired, 3 * declined) << repaired << " repaired, " << declined << " declined";
}

TEST(LocalRepair, SwitchesCutIntoIslandsDecline) {
  const Routed r = routed(make_kary_ntree(4, 3).value());
  const NodeIndex leaf = r.topo.switches().front();
  std::vector<CableEnd> up;
  for (PortNum p = 5; p <= 8; ++p) up.push_back({leaf, p});  // every up-link of the first leaf
  RepairStats stats;
  const auto out = repair_locally(r.topo, r.tables, cut(r.topo, up), r.lids, stats);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kDeclined);
  EXPECT_NE(out.error().message.find("islands"), std::string::npos) << out.error().message;
}

TEST(LocalRepair, LayeredAdaptiveAndShortTablesDecline) {
  const Routed r = routed(make_kary_ntree(4, 3).value());
  const Topology now = cut(r.topo, {switch_cables(r.topo).front()});
  RepairStats stats;

  RoutingTables layered = r.tables;
  layered.layering = std::make_shared<VlLayering>(r.topo, r.lids.max_lid());
  auto out = repair_locally(r.topo, layered, now, r.lids, stats);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("VL-layered"), std::string::npos) << out.error().message;

  RoutingTables adaptive = r.tables;
  adaptive.adaptive = std::make_shared<AdaptivePlan>();
  out = repair_locally(r.topo, adaptive, now, r.lids, stats);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("adaptive"), std::string::npos) << out.error().message;

  RoutingTables short_top = r.tables;
  const NodeIndex s = r.topo.switches().back();
  Lft shorter(static_cast<Lid>(r.lids.max_lid() - 1));
  for (Lid lid = 0; lid < r.lids.max_lid(); ++lid) shorter.set(lid, r.tables.lft[s].get(lid));
  short_top.lft[s] = shorter;
  out = repair_locally(r.topo, short_top, now, r.lids, stats);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("LinearFDBTop"), std::string::npos) << out.error().message;
  EXPECT_NE(out.error().message.find(r.topo.node(s).description), std::string::npos) << out.error().message;
}

// Leaf-spine, two spines: routes that go leaf -> spine -> leaf -> spine -> leaf deliver but turn from
// down to up, so the previous tables prove nothing about deadlock freedom under the repair's order.
TEST(LocalRepair, PreviousHostRoutesThatAreNotUpDownLegalDecline) {
  LeafSpineSpec spec;
  spec.leaves = 3;
  spec.spines = 2;
  spec.hosts_per_leaf = 1;
  Routed r = routed(make_leaf_spine(spec).value());
  const Topology& t = r.topo;
  // Find leaves A, B, C and spines S1, S2; route A's traffic to C's host A -> S1 -> B -> S2 -> C.
  std::vector<NodeIndex> leaves;
  std::vector<NodeIndex> spines;
  for (NodeIndex s : t.switches()) (testing::has_ca(t, s) ? leaves : spines).push_back(s);
  ASSERT_EQ(leaves.size(), 3u);
  ASSERT_EQ(spines.size(), 2u);
  auto port_to = [&](NodeIndex from, NodeIndex to) {
    for (PortNum p = 1; p <= t.node(from).num_ports; ++p) {
      if (t.node(from).ports[p].peer == to) return p;
    }
    return PortNum{kNoPort};
  };
  const NodeIndex host_c = t.node(leaves[2]).ports[1].peer;
  ASSERT_FALSE(t.node(host_c).is_switch());
  const Lid lid = r.lids.base_lid(host_c, 1);
  r.tables.lft[leaves[0]].set(lid, port_to(leaves[0], spines[0]));
  r.tables.lft[spines[0]].set(lid, port_to(spines[0], leaves[1]));
  r.tables.lft[leaves[1]].set(lid, port_to(leaves[1], spines[1]));
  r.tables.lft[spines[1]].set(lid, port_to(spines[1], leaves[2]));
  ASSERT_EQ(check_all_reach(t, r.lids, r.tables), "");  // it still delivers
  RepairStats stats;
  const auto out = repair_locally(t, r.tables, t, r.lids, stats);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("LID " + std::to_string(lid)), std::string::npos) << out.error().message;
  EXPECT_NE(out.error().message.find("not up*/down* legal"), std::string::npos) << out.error().message;
  // A proof of these tables carries the illegal verdict: the repair that trusts it declines the same way.
  const RouteProof proof = prove_tables(t, r.tables, r.lids);
  EXPECT_EQ(proof.verdict[lid] & kRouteCaLegal, 0);
  const auto with_proof = repair_locally(t, r.tables, t, r.lids, stats, &proof);
  ASSERT_FALSE(with_proof.ok());
  EXPECT_EQ(with_proof.error().message, out.error().message);
}

// The repair that keeps the verdicts of a RouteProof for the LIDs no lost cable reaches must give what
// classifying every LID gives: the same tables, the same figures, and a proof of the result equal to a
// full classification of it (prove_tables), one cable lost and then a second one lost after the first
// repair (the proof a repair hands on is the one the next repair trusts).
TEST(LocalRepair, ProofCarriedRepairEqualsClassifyingEveryLid) {
  const Routed r = routed(make_kary_ntree(4, 3).value());
  const std::vector<CableEnd> cables = switch_cables(r.topo);
  const RouteProof proof0 = prove_tables(r.topo, r.tables, r.lids);
  std::size_t routable = 0;
  for (Lid lid = 1; lid <= r.lids.max_lid(); ++lid) routable += (proof0.verdict[lid] & kRouteProved) ? 1 : 0;
  ASSERT_EQ(routable, r.lids.entries().size());  // LMC 0: one LID per port, every one routable
  for (std::size_t i = 0; i < cables.size(); ++i) {
    const CableEnd& c = cables[i];
    const std::string what = r.topo.node(c.node).description + " port " + std::to_string(c.port);
    SCOPED_TRACE(what);
    const Topology now = cut(r.topo, {c});
    RepairStats full_stats;
    RouteProof full_proof;
    const auto full = repair_locally(r.topo, r.tables, now, r.lids, full_stats, nullptr, &full_proof);
    RepairStats stats;
    RouteProof proof;
    const auto carried = repair_locally(r.topo, r.tables, now, r.lids, stats, &proof0, &proof);
    ASSERT_TRUE(full.ok()) << full.error().message;
    ASSERT_TRUE(carried.ok()) << carried.error().message;
    EXPECT_EQ(carried->lft, full->lft);
    EXPECT_EQ(carried->deadlock_free, full->deadlock_free);
    EXPECT_EQ(stats.entries_repaired, full_stats.entries_repaired);
    EXPECT_EQ(stats.lids_touched, full_stats.lids_touched);
    EXPECT_EQ(stats.verified_fully, full_stats.verified_fully);
    EXPECT_EQ(full_stats.lids_proved, routable);
    // Classified: exactly the LIDs some route of which crossed the cable (the test-side walk's set).
    EXPECT_EQ(stats.lids_proved, lids_crossing(r, {c}).size());
    EXPECT_EQ(proof, full_proof);
    EXPECT_EQ(proof, prove_tables(now, *carried, r.lids));

    // A second loss, repaired from the first repair's tables and the proof it handed on.
    const CableEnd& c2 = cables[(i + 37) % cables.size()];
    const Topology now2 = cut(r.topo, {c, c2});
    RepairStats stats2;
    RepairStats full_stats2;
    RouteProof proof2;
    RouteProof full_proof2;
    const auto full2 = repair_locally(now, *carried, now2, r.lids, full_stats2, nullptr, &full_proof2);
    const auto carried2 = repair_locally(now, *carried, now2, r.lids, stats2, &proof, &proof2);
    ASSERT_EQ(full2.ok(), carried2.ok()) << (full2.ok() ? carried2.error().message : full2.error().message);
    if (!full2.ok()) {
      EXPECT_EQ(carried2.error().message, full2.error().message);
      continue;
    }
    EXPECT_EQ(carried2->lft, full2->lft);
    EXPECT_EQ(stats2.entries_repaired, full_stats2.entries_repaired);
    EXPECT_EQ(proof2, full_proof2);
    EXPECT_EQ(proof2, prove_tables(now2, *carried2, r.lids));
    EXPECT_EQ(check_all_reach(now2, r.lids, *carried2), "");
    EXPECT_TRUE(cdg_acyclic(now2, r.lids, *carried2, /*ca_sources_only=*/true));
  }
}

// A proof is trusted only where it provably still holds: under another switch order nothing is kept, and
// a LID whose destination moved is classified again.
TEST(LocalRepair, ProofUnderAnotherOrderOrForAMovedDestinationIsNotTrusted) {
  const Routed r = routed(make_kary_ntree(4, 3).value());
  const CableEnd c = switch_cables(r.topo).front();
  const Topology now = cut(r.topo, {c});
  const RouteProof proof0 = prove_tables(r.topo, r.tables, r.lids);
  RepairStats base;
  ASSERT_TRUE(repair_locally(r.topo, r.tables, now, r.lids, base, &proof0).ok());

  RouteProof reordered = proof0;
  std::reverse(reordered.order.begin(), reordered.order.end());
  RepairStats stats;
  ASSERT_TRUE(repair_locally(r.topo, r.tables, now, r.lids, stats, &reordered).ok());
  EXPECT_EQ(stats.lids_proved, r.lids.entries().size());

  // A LID whose routes never crossed the cable, told to have been delivered by another port.
  const std::set<Lid> crossing = lids_crossing(r, {c});
  Lid far = 0;
  for (Lid lid = 1; lid <= r.lids.max_lid() && far == 0; ++lid) {
    if (r.lids.owner(lid) && !crossing.contains(lid)) far = lid;
  }
  ASSERT_NE(far, 0);
  RouteProof moved = proof0;
  moved.dst_port[far] = static_cast<PortNum>(moved.dst_port[far] + 1);
  stats = {};
  ASSERT_TRUE(repair_locally(r.topo, r.tables, now, r.lids, stats, &moved).ok());
  EXPECT_EQ(stats.lids_proved, base.lids_proved + 1);
}

// classify_lid_routes against the test-side walk on randomly corrupted tables: the same delivery verdict
// per switch, the same hop count, and legality computed from the walked switch sequence.
TEST(UpDownCheck, ClassificationMatchesIndependentWalksOnCorruptedTables) {
  Routed r = routed(make_kary_ntree(4, 3).value());
  const Topology& t = r.topo;
  const SwitchGraph graph = SwitchGraph::build(t);
  const LevelOrder order = LevelOrder::build(t, graph);
  const std::vector<LidTarget> targets = lid_targets(t, graph, r.lids);
  std::mt19937_64 rng(7);
  std::size_t broken_seen = 0;
  std::size_t illegal_seen = 0;
  for (int round = 0; round < 20; ++round) {
    RoutingTables tables = r.tables;
    for (int k = 0; k < 40; ++k) {
      const NodeIndex s = t.switches()[rng() % t.switches().size()];
      const Lid lid = static_cast<Lid>(1 + rng() % r.lids.max_lid());
      const unsigned pick = static_cast<unsigned>(rng() % (t.node(s).num_ports + 2u));
      tables.lft[s].set(lid, pick > t.node(s).num_ports ? kNoPort : static_cast<PortNum>(pick));
    }
    const SwitchLfts lfts(graph, tables);
    std::vector<RouteClass> cls;
    std::vector<std::uint16_t> hops;
    std::vector<SwitchIndex> stack;
    for (Lid lid = 1; lid <= r.lids.max_lid(); ++lid) {
      if (!r.lids.owner(lid)) continue;
      const LidRouteCheck check = classify_lid_routes(graph, order, lfts, lid, targets[lid], cls, hops, stack);
      bool all_deliver = true;
      bool all_legal = true;
      bool ca_legal = true;
      for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
        const auto w = walk(t, r.lids, tables, graph.node(s), lid);
        const bool ok = w.error.empty();
        all_deliver = all_deliver && ok;
        ASSERT_EQ(cls[s] == RouteClass::kBroken, !ok) << "switch " << s << " LID " << lid << ": " << w.error;
        if (!ok) {
          ++broken_seen;
          all_legal = false;
          if (order.has_ca[s]) ca_legal = false;
          continue;
        }
        EXPECT_EQ(hops[s], w.hops.size());
        // Legal: the ranks along the walk rise, then fall, never rise after a fall.
        bool fell = false;
        bool legal = true;
        bool rose = false;
        for (std::size_t i = 0; i + 1 < w.switches.size(); ++i) {
          const bool up = order.rank[graph.index_of(w.switches[i + 1])] > order.rank[graph.index_of(w.switches[i])];
          if (up && fell) legal = false;
          if (up) rose = true;
          if (!up) fell = true;
        }
        const RouteClass want = !legal ? RouteClass::kIllegal : rose ? RouteClass::kUpDown : RouteClass::kDown;
        EXPECT_EQ(cls[s], want) << "switch " << s << " LID " << lid;
        if (!legal) {
          ++illegal_seen;
          all_legal = false;
          if (order.has_ca[s]) ca_legal = false;
        }
      }
      EXPECT_EQ(check.delivered, all_deliver);
      EXPECT_EQ(check.legal, all_legal);
      EXPECT_EQ(check.ca_legal, ca_legal);
      if (!all_deliver) {
        ASSERT_NE(check.first_broken, kNoSwitch);
        EXPECT_FALSE(walk(t, r.lids, tables, graph.node(check.first_broken), lid).error.empty());
      }
    }
  }
  EXPECT_GT(broken_seen, 0u);  // the corruption produced drops and loops for the check to find
  EXPECT_GT(illegal_seen, 0u);
}

// The order of a fat tree: leaves lowest, then the middle, then the top; ftree's host routes all legal.
TEST(UpDownCheck, FatTreeLevelsOrderLeavesBelowSpines) {
  const Routed r = routed(make_kary_ntree(4, 3).value());
  const SwitchGraph graph = SwitchGraph::build(r.topo);
  const LevelOrder order = LevelOrder::build(r.topo, graph);
  for (SwitchIndex a = 0; a < graph.num_switches(); ++a) {
    for (const auto& link : graph.links(a)) {
      // Every cable joins adjacent levels: exactly one direction is up.
      EXPECT_NE(order.up(a, link.peer), order.up(link.peer, a));
      if (order.has_ca[a]) {
        EXPECT_TRUE(order.up(a, link.peer));
      }
    }
  }
  RepairStats stats;
  ASSERT_TRUE(repair_locally(r.topo, r.tables, r.topo, r.lids, stats).ok());
}

}  // namespace
}  // namespace smd::local_repair_test
