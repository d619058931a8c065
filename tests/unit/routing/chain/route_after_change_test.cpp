// The one repair decision (routing/chain/route_after_change.h), one test per outcome. The tables before
// are written by hand on small fabrics drawn below, and the tables expected after are read off the
// drawing; where the expected tables are an engine's fresh run, the witness is that engine run alone
// (route_with_chain), not the decision under test.
//
// Three spines, two leaves (the what-if drain test's fabric):
//
//        S0 (LID 7)   S1 (LID 8)   S2 (LID 9)     port 1 of each spine -> L0, port 2 -> L1
//        L0 (LID 5): ports 1..3 -> S0..S2, port 4 -> h0 (LID 1)
//        L1 (LID 6): ports 1..3 -> S0..S2, port 4 -> h1 (LID 2)
//
// Before: the leaves reach each other's host and LID by S1 (port 2), each spine by its own cable; the
// spines go down directly and reach each other through L0. The cable L1 port 1 - S0 port 2 is lost: the
// only broken routes are S0 to h1 and to L1 (now only down to L0: port 1) and L1 to S0 (up by S1 or S2,
// then down to L0 and up to S0).
#include "routing/chain/route_after_change.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/isolation/cable_isolation.h"
#include "routing/lids/lid_assign.h"
#include "routing/model/vl_layers.h"
#include "tests/unit/routing/hand_node.h"

namespace smd::route_after_change_test {
namespace {

using test::make_node;

struct Fabric {
  Topology t;
  LidMap lids;
  RoutingTables before;

  NodeIndex add(NodeType type, unsigned ports, Guid guid) {
    Node n = make_node(type, ports, guid);
    for (PortNum p = 0; p < n.ports.size(); ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    return t.add_node(std::move(n)).value();
  }
  void lft(NodeIndex sw, Lid top, std::vector<std::pair<Lid, PortNum>> entries) {
    Lft table(top);
    for (auto [lid, port] : entries) table.set(lid, port);
    before.lft[sw] = table;
  }
  Topology without(NodeIndex n, PortNum p) const {
    const Port& port = t.node(n).ports[p];
    const std::vector<IsolationDecision> cut = {IsolationDecision{{n, p}, {port.peer, port.peer_port}, true, ""}};
    return without_cables(t, cut);
  }
};

struct ThreeSpines : Fabric {
  NodeIndex s[3] = {};
  NodeIndex l0 = 0, l1 = 0, h0 = 0, h1 = 0;

  ThreeSpines() {
    for (int i = 0; i < 3; ++i) s[i] = add(NodeType::kSwitch, 2, 0x300 + 0x100 * static_cast<Guid>(i));
    l0 = add(NodeType::kSwitch, 4, 0x100);
    l1 = add(NodeType::kSwitch, 4, 0x200);
    h0 = add(NodeType::kCa, 1, 0x10);
    h1 = add(NodeType::kCa, 1, 0x20);
    for (PortNum i = 0; i < 3; ++i) {
      EXPECT_TRUE(t.connect(l0, i + 1, s[i], 1).ok());
      EXPECT_TRUE(t.connect(l1, i + 1, s[i], 2).ok());
    }
    EXPECT_TRUE(t.connect(h0, 1, l0, 4).ok());
    EXPECT_TRUE(t.connect(h1, 1, l1, 4).ok());
    t.sm_node = h0;
    t.sm_port = 1;
    for (auto [n, p, lid] : std::vector<std::tuple<NodeIndex, PortNum, Lid>>{
             {h0, 1, 1}, {h1, 1, 2}, {l0, 0, 5}, {l1, 0, 6}, {s[0], 0, 7}, {s[1], 0, 8}, {s[2], 0, 9}}) {
      EXPECT_TRUE(lids.assign(n, p, lid, 0).ok());
    }
    before.engine = "by hand";
    before.lft.resize(t.size());
    lft(l0, 9, {{1, 4}, {2, 2}, {5, 0}, {6, 2}, {7, 1}, {8, 2}, {9, 3}});
    lft(l1, 9, {{1, 2}, {2, 4}, {5, 2}, {6, 0}, {7, 1}, {8, 2}, {9, 3}});
    for (int i = 0; i < 3; ++i) {
      lft(s[i], 9, {{1, 1}, {2, 2}, {5, 1}, {6, 2}, {7, 1}, {8, 1}, {9, 1}});
      before.lft[s[i]].set(static_cast<Lid>(7 + i), 0);
    }
  }
};

const std::vector<std::string> kMinhop = {"minhop"};
const RoutingOptions kNoOptions{};

RouteChangeInput input(const Fabric& f, const Topology& now, const std::vector<std::string>& chain = kMinhop) {
  RouteChangeInput in;
  in.before = &f.t;
  in.previous = &f.before;
  in.now = &now;
  in.lids = &f.lids;
  in.chain = &chain;
  in.options = &kNoOptions;
  in.minimal_repair = true;
  return in;
}

// Every entry of `got` equals `want` on every switch of `topo`, but the (switch, LID) entries in `changed`,
// which must equal the port given there.
void expect_tables(const Topology& topo, const RoutingTables& want, const RoutingTables& got, Lid max_lid,
                   const std::vector<std::tuple<NodeIndex, Lid, PortNum>>& changed) {
  for (NodeIndex n : topo.switches()) {
    for (Lid lid = 1; lid <= max_lid; ++lid) {
      PortNum expected = want.lft[n].get(lid);
      for (auto [cn, cl, cp] : changed) {
        if (cn == n && cl == lid) expected = cp;
      }
      EXPECT_EQ(got.lft[n].get(lid), expected) << "switch " << n << " LID " << lid;
    }
  }
}

// Local repair accepts: no engine runs. S0 goes down to L0 for h1 and L1 (its only cable left). L1 has no
// up*/down* legal route left to S0's own LID and takes the valley L1 -> S1 or S2 -> L0 -> S0: both are two
// more hops, neither is its old port, and port 2 carries h0's LID while port 3 carries no CA LID, so the
// least-loaded rule picks port 3 (S2).
TEST(RouteAfterChange, LocalRepairRewritesOnlyTheBrokenEntries) {
  ThreeSpines f;
  const Topology now = f.without(f.l1, 1);
  RouteProof proof;
  RouteChangeInput in = input(f, now);
  in.proof_out = &proof;
  in.verify_local_repair = true;
  RouteSteps steps;
  auto out = route_after_change(in, steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_TRUE(steps.repair_allowed);
  EXPECT_EQ(out->made_by, TablesMadeBy::kLocalRepair) << steps.local_repair_declined;
  EXPECT_FALSE(out->chain_ran);
  EXPECT_TRUE(out->declined.empty());
  EXPECT_EQ(steps.mix, MixVerdict::kNotTried);
  EXPECT_EQ(out->tables.engine, "by hand");
  expect_tables(now, f.before, out->tables, 9, {{f.s[0], 2, 1}, {f.s[0], 6, 1}, {f.l1, 7, 3}});
  EXPECT_EQ(out->stats.entries_repaired, 3u);
  ASSERT_TRUE(out->verified.has_value());
  EXPECT_TRUE(out->verified->ca_deadlock_free);
  EXPECT_FALSE(proof.verdict.empty());  // handed on for the next repair
}

// Adaptive tables before: the local repair declines, minhop routes fresh, and the mix keeps every old
// entry but the three broken ones, which take minhop's: S0 has one way down (port 1), L1's S0 is two
// spines' worth of equal routes, whichever minhop chose. The mix is verified and kept.
TEST(RouteAfterChange, MinimalRepairKeepsTheOldRoutesWhereTheLocalRepairDeclines) {
  ThreeSpines f;
  f.before.adaptive = std::make_shared<AdaptivePlan>();
  const Topology now = f.without(f.l1, 1);
  auto fresh = route_with_chain(kMinhop, kNoOptions, now, f.lids);  // the witness of the fresh entries
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  const PortNum l1_to_s0 = fresh->tables.lft[f.l1].get(7);
  ASSERT_TRUE(l1_to_s0 == 2 || l1_to_s0 == 3) << static_cast<int>(l1_to_s0);
  RouteSteps steps;
  auto out = route_after_change(input(f, now), steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_NE(steps.local_repair_declined.find("adaptive"), std::string::npos) << steps.local_repair_declined;
  EXPECT_EQ(out->made_by, TablesMadeBy::kMinimalRepair) << steps.mix_rejected;
  EXPECT_EQ(steps.mix, MixVerdict::kKept);
  EXPECT_TRUE(out->chain_ran);
  EXPECT_EQ(out->tables.engine, "minhop");
  expect_tables(now, f.before, out->tables, 9, {{f.s[0], 2, 1}, {f.s[0], 6, 1}, {f.l1, 7, l1_to_s0}});
  EXPECT_EQ(out->stats.entries_repaired, 3u);
  ASSERT_TRUE(out->verified.has_value());
  EXPECT_TRUE(out->verified->ca_deadlock_free);
}

// A ring of four switches A -> B -> C -> D -> A (port 1 clockwise, port 2 back, port 3 a host), A and B
// also joined by a second cable (ports 4) that the tables before never use. Before, every switch sends
// every other LID clockwise: it delivers, but host traffic depends around the ring (a cycle), which the
// local repair cannot prove legal. The unused cable is lost: every old route still delivers, so the mix is
// exactly the tables before, whose CA dependency graph has the cycle, while updn's fresh tables promise
// deadlock freedom: the mix is rejected and updn's tables are programmed as they came.
TEST(RouteAfterChange, MixWithACaDependencyCycleIsRejectedForTheFreshTables) {
  Fabric f;
  NodeIndex sw[4];
  NodeIndex host[4];
  for (int i = 0; i < 4; ++i) sw[i] = f.add(NodeType::kSwitch, 4, 0x100 * static_cast<Guid>(i + 1));
  for (int i = 0; i < 4; ++i) host[i] = f.add(NodeType::kCa, 1, 0x10 * static_cast<Guid>(i + 1));
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(f.t.connect(sw[i], 1, sw[(i + 1) % 4], 2).ok());
    ASSERT_TRUE(f.t.connect(host[i], 1, sw[i], 3).ok());
  }
  ASSERT_TRUE(f.t.connect(sw[0], 4, sw[1], 4).ok());
  f.t.sm_node = host[0];
  f.t.sm_port = 1;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(f.lids.assign(host[i], 1, static_cast<Lid>(1 + i), 0).ok());
    ASSERT_TRUE(f.lids.assign(sw[i], 0, static_cast<Lid>(5 + i), 0).ok());
  }
  f.before.engine = "by hand";
  f.before.lft.resize(f.t.size());
  for (int i = 0; i < 4; ++i) {
    f.lft(sw[i], 8, {});
    for (Lid lid = 1; lid <= 8; ++lid) f.before.lft[sw[i]].set(lid, 1);
    f.before.lft[sw[i]].set(static_cast<Lid>(1 + i), 3);
    f.before.lft[sw[i]].set(static_cast<Lid>(5 + i), 0);
  }
  const auto before_check = verify_tables(f.t, f.lids, f.before, false);
  ASSERT_TRUE(before_check.ok()) << before_check.error().message;
  ASSERT_FALSE(before_check->ca_deadlock_free);  // the drawing's cycle, seen by the verifier
  const Topology now = f.without(sw[0], 4);
  const std::vector<std::string> updn = {"updn"};
  auto fresh = route_with_chain(updn, kNoOptions, now, f.lids);
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  ASSERT_TRUE(fresh->tables.deadlock_free);
  RouteSteps steps;
  auto out = route_after_change(input(f, now, updn), steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_FALSE(steps.local_repair_declined.empty());
  EXPECT_EQ(steps.mix, MixVerdict::kRejected);
  EXPECT_EQ(steps.mix_rejected, "CA traffic would have a channel-dependency cycle");
  EXPECT_EQ(out->made_by, TablesMadeBy::kFresh);
  EXPECT_EQ(out->tables.engine, "updn");
  expect_tables(now, fresh->tables, out->tables, 8, {});
  EXPECT_EQ(out->stats.entries_repaired, 0u);
  ASSERT_TRUE(out->verified.has_value());
  EXPECT_TRUE(out->verified->deadlock_free);
}

// VL-layered tables before: the local repair declines them and the mix is never tried, whatever would
// still deliver: the fresh minhop run is programmed as it came.
TEST(RouteAfterChange, LayeredTablesAreNeverMixed) {
  ThreeSpines f;
  f.before.layering = std::make_shared<VlLayering>(f.t, f.lids.max_lid());
  const Topology now = f.without(f.l1, 1);
  auto fresh = route_with_chain(kMinhop, kNoOptions, now, f.lids);
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  RouteSteps steps;
  auto out = route_after_change(input(f, now), steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_NE(steps.local_repair_declined.find("VL-layered"), std::string::npos) << steps.local_repair_declined;
  EXPECT_EQ(steps.mix, MixVerdict::kLayered);
  EXPECT_EQ(steps.mix_rejected, "VL-layered tables are never mixed");
  EXPECT_EQ(out->made_by, TablesMadeBy::kFresh);
  expect_tables(now, fresh->tables, out->tables, 9, {});
  EXPECT_EQ(out->stats.entries_repaired, 0u);
}

// No repair when it is not asked for or when a cable came back (the fabric before lacked one): the
// chain's fresh tables, nothing tried before or after.
TEST(RouteAfterChange, GainedLinksOrRepairOffProgramTheFreshTables) {
  ThreeSpines f;
  const Topology fewer = f.without(f.l1, 1);
  auto fresh = route_with_chain(kMinhop, kNoOptions, f.t, f.lids);
  ASSERT_TRUE(fresh.ok()) << fresh.error().message;
  // `before` routed on the fabric without the cable, `now` has it back.
  RouteChangeInput gained = input(f, f.t);
  gained.before = &fewer;
  RouteSteps steps;
  auto out = route_after_change(gained, steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_FALSE(steps.repair_allowed);
  EXPECT_TRUE(steps.local_repair_declined.empty());
  EXPECT_EQ(out->made_by, TablesMadeBy::kFresh);
  expect_tables(f.t, fresh->tables, out->tables, 9, {});

  RouteChangeInput off = input(f, fewer);
  off.minimal_repair = false;
  out = route_after_change(off, steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_FALSE(steps.repair_allowed);
  EXPECT_EQ(out->made_by, TablesMadeBy::kFresh);
  EXPECT_EQ(steps.mix, MixVerdict::kNotTried);
}

// Both hosts of the first leaf of the 2-ary 3-tree gone: counted up from the CAs that leaf reads as a top
// switch and ftree declines (minhop would route). With the last run's roots, ftree routes again: the same
// tables as ftree alone given those roots, and the chain's declined list is that of the rooted run (empty:
// ftree is first). With no roots given, minhop's tables.
TEST(RouteAfterChange, FtreeIsRetriedWithTheLastRoots) {
  auto topo = make_kary_ntree(2, 3);
  ASSERT_TRUE(topo.ok());
  auto lids = assign_lids(*topo, {}, LidAssignOptions{});
  ASSERT_TRUE(lids.ok());
  auto first = route_with_chain({"ftree"}, kNoOptions, *topo, *lids);
  ASSERT_TRUE(first.ok()) << first.error().message;
  const std::vector<Guid> roots = first->tables.tree_roots;
  ASSERT_FALSE(roots.empty());
  const NodeIndex leaf = topo->switches().front();
  std::vector<IsolationDecision> cut;
  for (PortNum p = 1; p <= topo->node(leaf).num_ports; ++p) {
    const Port& port = topo->node(leaf).ports[p];
    if (port.connected() && !topo->node(port.peer).is_switch()) {
      cut.push_back({{leaf, p}, {port.peer, port.peer_port}, true, ""});
    }
  }
  ASSERT_EQ(cut.size(), 2u);
  const Topology now = without_cables(*topo, cut);
  const std::vector<std::string> chain = {"ftree", "minhop"};
  auto plain = route_with_chain(chain, kNoOptions, now, *lids);
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  ASSERT_EQ(plain->tables.engine, "minhop");  // the retry is what makes it ftree's
  auto rooted = route_with_chain({"ftree"}, with_ftree_roots(kNoOptions, roots), now, *lids);
  ASSERT_TRUE(rooted.ok()) << rooted.error().message;

  RouteChangeInput in;
  in.now = &now;
  in.lids = &*lids;
  in.chain = &chain;
  in.options = &kNoOptions;
  in.last_ftree_roots = roots;
  RouteSteps steps;
  auto out = route_after_change(in, steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->tables.engine, "ftree");
  EXPECT_EQ(steps.ftree_retry_roots, roots.size());
  EXPECT_TRUE(out->declined.empty());
  EXPECT_EQ(out->fresh_tree_roots, rooted->tables.tree_roots);
  expect_tables(now, rooted->tables, out->tables, lids->max_lid(), {});

  in.last_ftree_roots = {};
  out = route_after_change(in, steps);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->tables.engine, "minhop");
  EXPECT_EQ(steps.ftree_retry_roots, 0u);
  ASSERT_EQ(out->declined.size(), 1u);
  EXPECT_EQ(out->declined[0].engine, "ftree");
  EXPECT_TRUE(out->fresh_tree_roots.empty());
}

TEST(RouteAfterChange, MissingInputsAreRefused) {
  ThreeSpines f;
  RouteChangeInput in = input(f, f.t);
  in.previous = nullptr;  // a fabric before without its tables
  RouteSteps steps;
  auto out = route_after_change(in, steps);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kInvalidInput);
  in = input(f, f.t);
  in.chain = nullptr;
  out = route_after_change(in, steps);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().code, ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace smd::route_after_change_test
