// AR groups (issue 4): built by updn and ftree when RoutingOptions::adaptive is set. Expectations come
// from the tree's shape (levels found here by BFS from the CA-attached switches, hop counts by a BFS of
// this file), never from DestPaths: leaf groups for remote destinations are all up-ports, same-leaf
// destinations get the host port, every member leads one hop nearer without a down->up turn, and
// dedupe gives the group count derived by hand for a leaf/spine fabric.
#include "routing/engines/common/ar_groups.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "routing/engines/ftree/ftree_factory.h"
#include "routing/engines/updn/updn_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/model/hop_table.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::ar_groups_test {
namespace {

using testing::assign_test_lids;

Result<RoutingTables> route(const std::string& engine, const Topology& topo, const LidMap& lids) {
  RoutingOptions opts;
  opts.adaptive = true;
  return engine == "ftree" ? ftree_factory().create(opts)->compute(topo, lids)
                           : updn_factory().create(opts)->compute(topo, lids);
}

/// Level of every switch node: 0 for switches with CAs, then BFS upwards. [NodeIndex], -1 for CAs.
std::vector<int> levels_of(const Topology& topo) {
  std::vector<int> level(topo.size(), -1);
  std::vector<NodeIndex> queue;
  for (NodeIndex s : topo.switches()) {
    for (const Port& p : topo.node(s).ports) {
      if (p.connected() && !topo.node(p.peer).is_switch() && level[s] < 0) level[s] = 0, queue.push_back(s);
    }
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (const Port& p : topo.node(queue[head]).ports) {
      if (p.connected() && topo.node(p.peer).is_switch() && level[p.peer] < 0) {
        level[p.peer] = level[queue[head]] + 1;
        queue.push_back(p.peer);
      }
    }
  }
  return level;
}

/// Switch-to-switch hop counts to `dst` (BFS), [NodeIndex], -1 where unreachable or not a switch.
std::vector<int> hops_to(const Topology& topo, NodeIndex dst) {
  std::vector<int> hops(topo.size(), -1);
  std::vector<NodeIndex> queue{dst};
  hops[dst] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (const Port& p : topo.node(queue[head]).ports) {
      if (p.connected() && topo.node(p.peer).is_switch() && hops[p.peer] < 0) {
        hops[p.peer] = hops[queue[head]] + 1;
        queue.push_back(p.peer);
      }
    }
  }
  return hops;
}

/// Every CA LID from every switch: each member leads one hop nearer (or delivers at the right port), and
/// after a member that goes down the next switch's whole group goes down. "" or the first failure.
std::string check_members(const Topology& topo, const LidMap& lids, const AdaptivePlan& plan) {
  const auto level = levels_of(topo);
  for (const auto& e : lids.entries()) {
    if (topo.node(e.owner.node).is_switch()) continue;
    const Port& ca_port = topo.node(e.owner.node).ports[e.owner.port];
    const auto hops = hops_to(topo, ca_port.peer);
    for (unsigned x = 0; x < (1u << e.lmc); ++x) {
      const Lid lid = static_cast<Lid>(e.base + x);
      for (NodeIndex s : topo.switches()) {
        const auto* group = plan.group(s, lid);
        const std::string where = topo.node(s).description + " LID " + std::to_string(lid);
        if (group == nullptr) return where + ": no group";
        for (PortNum p : *group) {
          const Port& port = topo.node(s).ports[p];
          if (!topo.node(port.peer).is_switch()) {
            if (port.peer != e.owner.node || port.peer_port != e.owner.port) return where + ": wrong delivery";
            continue;
          }
          const NodeIndex w = port.peer;
          if (hops[w] + 1 != hops[s]) return where + ": port " + std::to_string(p) + " is not shortest";
          if (level[w] > level[s]) continue;
          for (PortNum q : *plan.group(w, lid)) {
            const Port& next = topo.node(w).ports[q];
            if (topo.node(next.peer).is_switch() && level[next.peer] > level[w]) return where + ": down->up turn";
          }
        }
      }
    }
  }
  return "";
}

/// Ports of switch node s that lead to a switch one level higher, ascending.
std::vector<PortNum> up_ports(const Topology& topo, const std::vector<int>& level, NodeIndex s) {
  std::vector<PortNum> out;
  for (PortNum p = 1; p <= topo.node(s).num_ports; ++p) {
    const Port& port = topo.node(s).ports[p];
    if (port.connected() && topo.node(port.peer).is_switch() && level[port.peer] == level[s] + 1) out.push_back(p);
  }
  return out;
}

class ArGroups : public ::testing::TestWithParam<std::string> {};

TEST_P(ArGroups, KaryTreeLeafGroupsAndMembers) {
  auto topo = make_kary_ntree(8, 3);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto r = route(GetParam(), *topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_NE(r->adaptive, nullptr);
  const AdaptivePlan& plan = *r->adaptive;
  const auto level = levels_of(*topo);
  for (NodeIndex leaf : topo->switches()) {
    if (level[leaf] != 0) continue;
    const auto ups = up_ports(*topo, level, leaf);
    ASSERT_EQ(ups.size(), 8u);  // k-ary n-tree: k up-ports per non-top switch
    for (NodeIndex ca : topo->cas()) {
      const Port& cp = topo->node(ca).ports[1];
      const Lid lid = lids.base_lid(ca, 1);
      const auto* group = plan.group(leaf, lid);
      ASSERT_NE(group, nullptr);
      if (cp.peer == leaf) {
        EXPECT_EQ(*group, std::vector<PortNum>{cp.peer_port}) << topo->node(leaf).description;
      } else {
        EXPECT_EQ(*group, ups) << topo->node(leaf).description << " LID " << lid;
      }
    }
  }
  EXPECT_EQ(check_members(*topo, lids, plan), "");
}

TEST_P(ArGroups, LeafSpineDedupesToHandCount) {
  // 4 leaves (hosts on 1..4, spine 0 on 5, spine 1 on 6), 2 spines (leaf l on port l+1). Distinct groups:
  // {0} (own LID), {1}..{4} (host ports at a leaf = leaf ports at a spine), {5,6} (leaf to a remote LID),
  // {5} and {6} (leaf to a spine's LID: one legal path). Spine-to-spine goes down a leaf port: no new set.
  auto topo = make_leaf_spine(LeafSpineSpec{4, 2, 4, 1});
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto r = route(GetParam(), *topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_NE(r->adaptive, nullptr);
  // Each group as a mask of its ports (all below 64 here): a set of vectors of bytes would do, but GCC 14
  // warns falsely on its three-way comparison (-Wstringop-overread in lexicographical_compare_three_way).
  const auto mask = [](const std::vector<PortNum>& group) {
    std::uint64_t m = 0;
    for (PortNum p : group) m |= std::uint64_t{1} << p;
    return m;
  };
  const std::set<std::uint64_t> expected{mask({0}), mask({1}), mask({2}), mask({3}),
                                         mask({4}), mask({5}), mask({6}), mask({5, 6})};
  std::set<std::uint64_t> got;
  for (const auto& group : r->adaptive->groups) {
    ASSERT_FALSE(group.empty());
    ASSERT_LT(*std::max_element(group.begin(), group.end()), 64) << "a port number this test cannot mask";
    ASSERT_EQ(std::set<PortNum>(group.begin(), group.end()).size(), group.size()) << "a port twice in a group";
    got.insert(mask(group));
  }
  EXPECT_EQ(r->adaptive->groups.size(), 8u);
  EXPECT_EQ(got, expected);
  EXPECT_EQ(check_members(*topo, lids, *r->adaptive), "");
}

TEST_P(ArGroups, LmcLidsGetTheSameGroupsAndTablesStayDeadlockFree) {
  auto topo = make_kary_ntree(4, 3);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo, 2);
  auto r = route(GetParam(), *topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_NE(r->adaptive, nullptr);
  EXPECT_EQ(check_members(*topo, lids, *r->adaptive), "");
  auto v = verify_tables(*topo, lids, *r, true);
  EXPECT_TRUE(v.ok() && v->deadlock_free) << (v.ok() ? "cyclic" : v.error().message);
}

/// Per LID, the graph "switch -> next switch of any member" must be acyclic and every member must end at
/// the owner's port: then any per-packet choice arrives. DFS with colours; "" or the first failure.
std::string check_ar_graph_arrives(const Topology& topo, const LidMap& lids, const AdaptivePlan& plan) {
  for (const auto& e : lids.entries()) {
    for (unsigned x = 0; x < (1u << e.lmc); ++x) {
      const Lid lid = static_cast<Lid>(e.base + x);
      std::vector<int> colour(topo.size(), 0);  // 0 new, 1 on the stack, 2 done
      std::string failure;
      std::function<void(NodeIndex)> visit = [&](NodeIndex s) {
        colour[s] = 1;
        const auto* group = plan.group(s, lid);
        if (group == nullptr) failure = topo.node(s).description + " has no group";
        for (PortNum p : group ? *group : std::vector<PortNum>{}) {
          if (!failure.empty()) break;
          if (p == 0) {
            if (s != e.owner.node) failure = "port 0 at " + topo.node(s).description;
            continue;
          }
          const Port& port = topo.node(s).ports[p];
          if (!topo.node(port.peer).is_switch()) {
            if (port.peer != e.owner.node || port.peer_port != e.owner.port) failure = "misdelivered";
            continue;
          }
          if (colour[port.peer] == 1) failure = "AR loop through " + topo.node(port.peer).description;
          if (colour[port.peer] == 0) visit(port.peer);
        }
        colour[s] = 2;
      };
      for (NodeIndex s : topo.switches()) {
        if (colour[s] == 0) visit(s);
        if (!failure.empty()) return "LID " + std::to_string(lid) + ": " + failure;
      }
    }
  }
  return "";
}

TEST(ArGroupsUpdn, TorusAndRandomGraphsGetAVerifiedLoopFreePlan) {
  auto torus = make_torus({4, 4}, 2);
  auto random = make_random(16, 4, 2, 7);
  ASSERT_TRUE(torus.ok() && random.ok());
  for (const Topology* topo : {&*torus, &*random}) {
    const LidMap lids = assign_test_lids(*topo, 1);
    auto r = route("updn", *topo, lids);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_NE(r->adaptive, nullptr);
    EXPECT_EQ(check_ar_graph_arrives(*topo, lids, *r->adaptive), "");
    auto v = verify_tables(*topo, lids, *r, true);
    EXPECT_TRUE(v.ok()) << v.error().message;
    // Somewhere a choice exists: a torus has equal-cost up-ports.
    std::size_t largest = 0;
    for (const auto& g : r->adaptive->groups) largest = std::max(largest, g.size());
    EXPECT_GE(largest, 2u);
  }
}

TEST_P(ArGroups, ParallelCablesWidenCaGroupsButSpineLidsStayStatic) {
  // 2 cables per leaf/spine pair: a leaf reaches a remote host over 2 spines x 2 cables = 4 up-ports. A
  // spine's own LID is reached from the other spine only through a valley leaf; letting that leaf choose
  // between its 2 cables to the target spine would add down->up dependencies, so every group of a spine
  // LID is the single static port.
  auto topo = make_leaf_spine(LeafSpineSpec{4, 2, 4, 2});
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto r = route(GetParam(), *topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_NE(r->adaptive, nullptr);
  EXPECT_EQ(check_members(*topo, lids, *r->adaptive), "");
  for (NodeIndex spine : topo->switches()) {
    if (topo->node(spine).description.rfind("spine-", 0) != 0) continue;
    const Lid lid = lids.base_lid(spine, 0);
    for (NodeIndex s : topo->switches()) {
      const auto* group = r->adaptive->group(s, lid);
      ASSERT_NE(group, nullptr);
      EXPECT_EQ(*group, std::vector<PortNum>{r->lft[s].get(lid)}) << topo->node(s).description;
    }
  }
  for (NodeIndex leaf : topo->switches()) {
    if (topo->node(leaf).description != "leaf-0") continue;
    for (NodeIndex ca : topo->cas()) {
      if (topo->node(ca).ports[1].peer == leaf) continue;
      EXPECT_EQ(*r->adaptive->group(leaf, lids.base_lid(ca, 1)), (std::vector<PortNum>{5, 6, 7, 8}));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, ArGroups, ::testing::Values("ftree", "updn"));

/// The level order both engines use on a fat tree (rank = top level - level, GUID ties): an input of
/// verify_ar_plan, taken from the tree's shape here.
UpDownOrder level_order(const Topology& topo) {
  const SwitchGraph graph = SwitchGraph::build(topo);
  const auto level = levels_of(topo);
  int top = 0;
  for (NodeIndex s : topo.switches()) top = std::max(top, level[s]);
  std::vector<std::uint32_t> rank(graph.num_switches());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s)
    rank[s] = static_cast<std::uint32_t>(top - level[graph.node(s)]);
  return make_updown_order(topo, graph, rank);
}

TEST(ArGroupsVerify, AcceptsTheBuiltPlanAndRejectsAValley) {
  auto topo = make_leaf_spine(LeafSpineSpec{4, 2, 4, 1});
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto r = route("ftree", *topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const UpDownOrder order = level_order(*topo);
  ASSERT_TRUE(verify_ar_plan(*topo, lids, order, *r, *r->adaptive).ok());

  // spine-0 towards a host of leaf-0: {1} is right; {1, 2} lets packets go down into leaf-1, which would
  // have to go up again.
  NodeIndex spine = kNoNode;
  for (NodeIndex s : topo->switches()) {
    if (topo->node(s).description == "spine-0") spine = s;
  }
  ASSERT_NE(spine, kNoNode);
  const NodeIndex host0 = topo->cas()[0];
  ASSERT_EQ(topo->node(topo->node(host0).ports[1].peer).description, "leaf-0");
  const Lid lid = lids.base_lid(host0, 1);
  AdaptivePlan bad = *r->adaptive;
  bad.groups.push_back({1, 2});
  bad.group_of[spine][lid] = static_cast<std::uint32_t>(bad.groups.size() - 1);
  auto st = verify_ar_plan(*topo, lids, order, *r, bad);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().code, ErrorCode::kVerifyFailed);
  char want[64];
  std::snprintf(want, sizeof want, "LID 0x%04x port 2: down-going member", lid);
  EXPECT_NE(st.error().message.find(want), std::string::npos) << st.error().message;

  // A group without the static port is rejected too.
  AdaptivePlan missing = *r->adaptive;
  missing.groups.push_back({2});
  missing.group_of[spine][lid] = static_cast<std::uint32_t>(missing.groups.size() - 1);
  auto st2 = verify_ar_plan(*topo, lids, order, *r, missing);
  ASSERT_FALSE(st2.ok());
  EXPECT_NE(st2.error().message.find("static LFT port is not a member"), std::string::npos) << st2.error().message;
}

TEST(ArGroupsScale, ThreeLevelK12TreeIsQuick) {
  auto topo = make_kary_ntree(12, 3);  // 1,728 hosts, 432 switches
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  for (const char* engine : {"ftree", "updn"}) {
    const auto start = std::chrono::steady_clock::now();
    auto r = route(engine, *topo, lids);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_NE(r->adaptive, nullptr);
    std::printf("[ k=12 n=3 %s ] compute with AR plan %.0f ms, %zu distinct groups\n", engine, ms,
                r->adaptive->groups.size());
    // A leaf's remote group is its 12 up-ports; no group is larger than a switch's 12 up or down ports.
    std::size_t largest = 0;
    for (const auto& g : r->adaptive->groups) largest = std::max(largest, g.size());
    EXPECT_EQ(largest, 12u);
    EXPECT_LT(ms, 20000.0);
  }
}

}  // namespace
}  // namespace smd::ar_groups_test
