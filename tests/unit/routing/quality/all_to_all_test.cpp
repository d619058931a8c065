// all_to_all_loads against the definition it shortcuts: every ordered pair of distinct endpoints traced
// one by one with FlowTracer::trace, loads counted per switch out-port. Sound tables and tables broken
// on purpose (black holes, a forwarding loop, a wrong delivery port, a port past NumPorts) must give the
// same loads and pair counts. Also LidMajorLfts::store against Lft::set, and the LMC-0 path diversity
// shortcut against the pair count traced here.
#include "routing/quality/all_to_all.h"

#include <gtest/gtest.h>

#include "routing/engines/ftree/ftree_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/model/lid_major_lfts.h"
#include "routing/quality/path_diversity.h"
#include "routing/quality/report.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::all_to_all_test {
namespace {

using testing::assign_test_lids;

struct Traced {
  std::vector<std::uint64_t> slot_load;
  std::uint64_t delivered = 0;
  std::uint64_t failed = 0;
};

Traced trace_every_pair(const FlowTracer& tracer) {
  Traced t;
  t.slot_load.assign(tracer.graph().num_slots(), 0);
  std::vector<std::uint32_t> path;
  const auto n = static_cast<std::uint32_t>(tracer.endpoints().size());
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t d = 0; d < n; ++d) {
      if (s == d) continue;
      path.clear();
      if (!tracer.trace(s, d, path)) {
        ++t.failed;
        continue;
      }
      ++t.delivered;
      for (std::uint32_t c : path) {
        if (c < t.slot_load.size()) ++t.slot_load[c];
      }
    }
  }
  return t;
}

struct Fabric {
  Topology topo;
  LidMap lids;
  RoutingTables tables;
};

Fabric kary(unsigned k, unsigned n) {
  auto topo = make_kary_ntree(k, n);
  EXPECT_TRUE(topo.ok());
  Fabric f{std::move(topo).value(), {}, {}};
  f.lids = assign_test_lids(f.topo, 0);
  auto tables = ftree_factory().create(RoutingOptions{})->compute(f.topo, f.lids);
  EXPECT_TRUE(tables.ok()) << tables.error().message;
  f.tables = std::move(tables).value();
  return f;
}

void expect_same_as_traced(const Fabric& f, unsigned threads) {
  const FlowTracer tracer(f.topo, f.lids, f.tables, f.tables.ca_order);
  const Traced want = trace_every_pair(tracer);
  const AllToAllLoads got = all_to_all_loads(tracer, threads);
  EXPECT_EQ(got.delivered_pairs, want.delivered);
  EXPECT_EQ(got.failed_pairs, want.failed);
  EXPECT_EQ(got.slot_load, want.slot_load);
  // Path diversity at LMC 0 counts the same pairs, walked or taken from the quality report.
  auto alone = compute_path_diversity(f.topo, f.lids, f.tables, threads);
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->pairs, want.delivered);
  EXPECT_EQ(alone->unreachable_pairs, want.failed);
  QualityReport q;
  q.pairs = want.delivered + want.failed;
  q.reachable_pairs = want.delivered;
  auto reused = compute_path_diversity(f.topo, f.lids, f.tables, threads, &q);
  ASSERT_TRUE(reused.ok());
  EXPECT_EQ(reused->pairs, alone->pairs);
  EXPECT_EQ(reused->unreachable_pairs, alone->unreachable_pairs);
  EXPECT_EQ(reused->pairs_full, alone->pairs_full);
}

TEST(AllToAllLoads, SoundFatTreeEqualsEveryPairTraced) {
  const Fabric f = kary(4, 3);
  const FlowTracer tracer(f.topo, f.lids, f.tables, f.tables.ca_order);
  const std::uint64_t n = tracer.endpoints().size();
  ASSERT_EQ(n, 64u);
  const AllToAllLoads got = all_to_all_loads(tracer, 2);
  EXPECT_EQ(got.delivered_pairs, n * (n - 1));
  EXPECT_EQ(got.failed_pairs, 0u);
  expect_same_as_traced(f, 1);
  expect_same_as_traced(f, 2);
}

TEST(AllToAllLoads, BrokenTablesEqualEveryPairTraced) {
  Fabric f = kary(4, 3);
  const SwitchGraph graph = SwitchGraph::build(f.topo);
  const FlowTracer probe(f.topo, f.lids, f.tables, {});
  const auto& eps = probe.endpoints();
  // A black hole at a leaf for one LID, and at a top switch for another.
  const SwitchIndex leaf = eps[0].sw;
  f.tables.lft[graph.node(leaf)].set(eps[5].lid, kNoPort);
  const SwitchIndex top = graph.num_switches() - 1;
  f.tables.lft[graph.node(top)].set(eps[9].lid, kNoPort);
  // A loop: a leaf and its first up neighbour send one LID to each other.
  const SwitchIndex l2 = eps[20].sw;
  const auto& up = graph.links(l2).front();
  f.tables.lft[graph.node(l2)].set(eps[40].lid, up.port);
  f.tables.lft[graph.node(up.peer)].set(eps[40].lid, graph.peer_port(l2, up.port));
  // Delivered to the wrong CA: the leaf of endpoint 30 sends endpoint 31's LID out of 30's port.
  ASSERT_EQ(eps[30].sw, eps[31].sw);
  f.tables.lft[graph.node(eps[30].sw)].set(eps[31].lid, eps[30].sw_port);
  // A port past NumPorts.
  f.tables.lft[graph.node(eps[50].sw)].set(eps[2].lid, 200);
  expect_same_as_traced(f, 1);
  expect_same_as_traced(f, 2);
  const FlowTracer tracer(f.topo, f.lids, f.tables, {});
  EXPECT_GT(all_to_all_loads(tracer, 2).failed_pairs, 0u);
}

TEST(LidMajorLfts, StoreEqualsSetAndLeavesUnstagedLidsAlone) {
  const Fabric f = kary(4, 2);
  const SwitchGraph graph = SwitchGraph::build(f.topo);
  const std::size_t n = graph.num_switches();
  const Lid max_lid = 150;  // three LFT blocks and a partial one
  RoutingTables by_set;
  by_set.lft.resize(f.topo.size());
  RoutingTables staged_into;
  staged_into.lft.resize(f.topo.size());
  for (SwitchIndex s = 0; s < n; ++s) {
    // Switch 0's table is short (it must grow); the others hold a marker at LID 7, which is never staged.
    const Lid top = s == 0 ? 3 : max_lid;
    by_set.lft[graph.node(s)] = Lft(top);
    staged_into.lft[graph.node(s)] = Lft(top);
    if (s != 0) by_set.lft[graph.node(s)].set(7, 9), staged_into.lft[graph.node(s)].set(7, 9);
  }
  LidMajorLfts staged(n, max_lid);
  for (Lid lid = 1; lid <= max_lid; ++lid) {
    if (lid == 7) continue;
    PortNum* row = staged.row(lid);
    for (SwitchIndex s = 0; s < n; ++s) {
      const auto port = static_cast<PortNum>((lid * 7 + s * 3) % 5 == 0 ? kNoPort : (lid + s) % 9);
      row[s] = port;
      by_set.lft[graph.node(s)].set(lid, port);
    }
  }
  staged.store(graph, staged_into, 2);
  for (SwitchIndex s = 0; s < n; ++s) {
    EXPECT_EQ(staged_into.lft[graph.node(s)], by_set.lft[graph.node(s)]) << "switch " << s;
  }
}

}  // namespace
}  // namespace smd::all_to_all_test
