// The channel-dependency graph of host-injected routes (routing/verify/channel_deps.h), which the local
// repair checks instead of a whole verify_tables. Witnesses: the test-side route walk of
// updn_ftree_checks.h (a map of channel pairs, built without SwitchGraph slots or the hop rule of
// lft_walk.h) for the exact dependency set, and verify_tables / the test-side Kahn check for the verdict,
// on fabrics whose routes are acyclic (trees) and cyclic (minhop on a torus and on a random graph).
#include "routing/verify/channel_deps.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::channel_deps_test {
namespace {

using testing::cdg_acyclic;
using testing::Channel;
using testing::has_ca;
using testing::walk;

struct Case {
  std::string name;
  Topology topo;
  std::string engine;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"4-ary 3-tree ftree", make_kary_ntree(4, 3).value(), "ftree"});
  out.push_back({"leaf-spine updn", make_leaf_spine({6, 3, 3, 2}).value(), "updn"});
  out.push_back({"4x4 torus minhop", make_torus({4, 4}, 2).value(), "minhop"});
  out.push_back({"random minhop", make_random(24, 4, 2, 11).value(), "minhop"});
  out.push_back({"4-ary 2-tree minhop", make_kary_ntree(4, 2).value(), "minhop"});
  return out;
}

// (channel, next channel) pairs of every route from a switch with CAs to every LID, by the test-side walk.
std::set<std::pair<Channel, Channel>> expected_pairs(const Topology& topo, const LidMap& lids,
                                                     const RoutingTables& tables) {
  std::set<std::pair<Channel, Channel>> out;
  for (const auto& e : lids.entries()) {
    for (unsigned k = 0; k < (1u << e.lmc); ++k) {
      for (NodeIndex s : topo.switches()) {
        if (!has_ca(topo, s)) continue;
        const auto r = walk(topo, lids, tables, s, static_cast<Lid>(e.base + k));
        EXPECT_EQ(r.error, "");
        for (std::size_t i = 0; i + 1 < r.hops.size(); ++i) out.insert({r.hops[i], r.hops[i + 1]});
      }
    }
  }
  return out;
}

// The same pairs read back out of a DepGraph, in node/port terms.
std::set<std::pair<Channel, Channel>> graph_pairs(const Topology& topo, const SwitchGraph& graph,
                                                  const DepGraph& deps) {
  std::set<std::pair<Channel, Channel>> out;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (PortNum p = 0; p <= graph.num_ports(s); ++p) {
      const auto& bits = deps[graph.slot(s, p)];
      for (unsigned q = 0; q < 256; ++q) {
        if ((bits[q >> 6] >> (q & 63)) & 1u) {
          const Port& port = topo.node(graph.node(s)).ports[p];
          out.insert({{graph.node(s), p}, {port.peer, static_cast<PortNum>(q)}});
        }
      }
    }
  }
  return out;
}

std::vector<SwitchIndex> ca_switches(const Topology& topo, const SwitchGraph& graph) {
  std::vector<SwitchIndex> out;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    if (has_ca(topo, graph.node(s))) out.push_back(s);
  }
  return out;
}

TEST(ChannelDeps, HostInjectedDependenciesEqualTheTestSideWalkAndVerdictsAgree) {
  unsigned cyclic = 0;
  unsigned only_switch_traffic_cyclic = 0;  // verify_tables' second walk (the CA-path one) decided these
  for (Case& c : cases()) {
    SCOPED_TRACE(c.name);
    const LidMap lids = assign_lids(c.topo, {}, {}).value();
    const RoutingTables tables = route_with_chain({c.engine}, {}, c.topo, lids).value().tables;
    const SwitchGraph graph = SwitchGraph::build(c.topo);
    const SwitchLfts lfts(graph, tables);
    const DepGraph deps =
        source_dependencies(graph, lfts, lid_targets(c.topo, graph, lids), ca_switches(c.topo, graph));
    ASSERT_EQ(deps.size(), graph.num_slots());
    const auto want = expected_pairs(c.topo, lids, tables);
    EXPECT_EQ(graph_pairs(c.topo, graph, deps), want);
    EXPECT_EQ(count_dependencies(deps).second, want.size());

    const bool acyclic = !find_cdg_cycle(graph, deps, slot_switches(graph)).has_value();
    EXPECT_EQ(acyclic, cdg_acyclic(c.topo, lids, tables, /*ca_sources_only=*/true));
    const auto verified = verify_tables(c.topo, lids, tables, false);
    ASSERT_TRUE(verified.ok()) << verified.error().message;
    EXPECT_EQ(acyclic, verified->ca_deadlock_free);
    cyclic += acyclic ? 0 : 1;
    only_switch_traffic_cyclic += acyclic && !verified->deadlock_free ? 1 : 0;
  }
  EXPECT_GT(cyclic, 0u);  // the verdict was tested both ways
  EXPECT_GT(only_switch_traffic_cyclic, 0u);
}

// A cycle found is a real one: consecutive channels are dependencies of the graph, and it closes.
TEST(ChannelDeps, CycleFoundIsACycleOfTheGraph) {
  const Topology topo = make_torus({4, 4}, 2).value();
  const LidMap lids = assign_lids(topo, {}, {}).value();
  const RoutingTables tables = route_with_chain({"minhop"}, {}, topo, lids).value().tables;
  const SwitchGraph graph = SwitchGraph::build(topo);
  const SwitchLfts lfts(graph, tables);
  const DepGraph deps = source_dependencies(graph, lfts, lid_targets(topo, graph, lids), ca_switches(topo, graph));
  const std::vector<SwitchIndex> slot_switch = slot_switches(graph);
  const auto cycle = find_cdg_cycle(graph, deps, slot_switch);
  ASSERT_TRUE(cycle.has_value());
  ASSERT_GE(cycle->size(), 2u);
  for (std::size_t i = 0; i < cycle->size(); ++i) {
    const std::uint32_t from = (*cycle)[i];
    const std::uint32_t to = (*cycle)[(i + 1) % cycle->size()];
    const SwitchIndex s = slot_switch[from];
    const SwitchIndex t = graph.peer_switch(s, static_cast<PortNum>(from - graph.port_base(s)));
    ASSERT_EQ(slot_switch[to], t) << "channel " << i << " does not feed the next one";
    const unsigned q = to - graph.port_base(t);
    EXPECT_TRUE((deps[from][q >> 6] >> (q & 63)) & 1u) << "no dependency between channels " << i << " and " << i + 1;
  }
}

// Tables that drop and loop: every walk still ends, and the dependencies are those of the hops made, up
// to the first switch already counted for that LID.
TEST(ChannelDeps, CorruptedTablesEndEveryWalk) {
  const Topology topo = make_kary_ntree(4, 3).value();
  const LidMap lids = assign_lids(topo, {}, {}).value();
  RoutingTables tables = route_with_chain({"ftree"}, {}, topo, lids).value().tables;
  std::mt19937_64 rng(42);
  const std::vector<NodeIndex> sw = topo.switches();
  for (int i = 0; i < 400; ++i) {
    const NodeIndex s = sw[rng() % sw.size()];
    const Lid lid = static_cast<Lid>(1 + rng() % lids.max_lid());
    const unsigned pick = rng() % (topo.node(s).num_ports + 2u);  // a port, 0, or one past NumPorts
    tables.lft[s].set(lid, pick == topo.node(s).num_ports + 1u ? kNoPort : static_cast<PortNum>(pick));
  }
  const SwitchGraph graph = SwitchGraph::build(topo);
  const SwitchLfts lfts(graph, tables);
  const DepGraph deps = source_dependencies(graph, lfts, lid_targets(topo, graph, lids), ca_switches(topo, graph));
  ASSERT_EQ(deps.size(), graph.num_slots());
  // Every dependency recorded joins two switch-to-switch channels that exist.
  for (const auto& [a, b] : graph_pairs(topo, graph, deps)) {
    EXPECT_TRUE(topo.node(a.first).ports[a.second].connected());
    EXPECT_EQ(topo.node(a.first).ports[a.second].peer, b.first);
    ASSERT_LE(b.second, topo.node(b.first).num_ports);
    EXPECT_TRUE(topo.node(topo.node(b.first).ports[b.second].peer).is_switch());
  }
}

}  // namespace
}  // namespace smd::channel_deps_test
