// SwitchGraph / HopTable / lid_targets against distances and attachments computed here, independently.
#include "routing/model/hop_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "tests/unit/routing/hand_node.h"

namespace smd::hop_table_test {
namespace {

using test::make_node;

NodeIndex add(Topology& t, NodeType type, unsigned ports) {
  static Guid next = 0x1000;
  return t.add_node(make_node(type, ports, ++next)).value();
}

/// Reference BFS over the Node/Port structures (not the SwitchGraph), switch cables only.
std::vector<int> bfs(const Topology& t, NodeIndex src) {
  std::vector<int> d(t.size(), -1);
  std::deque<NodeIndex> q{src};
  d[src] = 0;
  while (!q.empty()) {
    const NodeIndex u = q.front();
    q.pop_front();
    for (const Port& p : t.node(u).ports) {
      if (!p.connected() || !t.node(p.peer).is_switch() || d[p.peer] >= 0) continue;
      d[p.peer] = d[u] + 1;
      q.push_back(p.peer);
    }
  }
  return d;
}

TEST(HopTable, LineOfSwitchesHasHopsEqualToIndexDistance) {
  Topology t;
  std::vector<NodeIndex> sw;
  for (int i = 0; i < 5; ++i) sw.push_back(add(t, NodeType::kSwitch, 4));
  for (int i = 0; i + 1 < 5; ++i) ASSERT_TRUE(t.connect(sw[i], 2, sw[i + 1], 1).ok());
  const auto g = SwitchGraph::build(t);
  const auto h = HopTable::build(g);
  ASSERT_EQ(h.num_switches(), 5u);
  for (int a = 0; a < 5; ++a) {
    for (int b = 0; b < 5; ++b) EXPECT_EQ(h.hops(g.index_of(sw[a]), g.index_of(sw[b])), std::abs(a - b));
  }
}

TEST(HopTable, RingUsesTheShorterWayRound) {
  Topology t;
  const int n = 7;
  std::vector<NodeIndex> sw;
  for (int i = 0; i < n; ++i) sw.push_back(add(t, NodeType::kSwitch, 3));
  for (int i = 0; i < n; ++i) ASSERT_TRUE(t.connect(sw[i], 2, sw[(i + 1) % n], 1).ok());
  const auto g = SwitchGraph::build(t);
  const auto h = HopTable::build(g, 2);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const int d = std::abs(a - b);
      EXPECT_EQ(h.hops(a, b), std::min(d, n - d)) << a << "->" << b;
    }
  }
}

TEST(HopTable, DisconnectedSwitchesAreUnreachableAndInOtherComponents) {
  Topology t;
  const NodeIndex a = add(t, NodeType::kSwitch, 2);
  const NodeIndex b = add(t, NodeType::kSwitch, 2);
  const NodeIndex c = add(t, NodeType::kSwitch, 2);
  ASSERT_TRUE(t.connect(a, 1, b, 1).ok());
  const auto g = SwitchGraph::build(t);
  const auto h = HopTable::build(g);
  EXPECT_EQ(h.hops(g.index_of(a), g.index_of(b)), 1);
  EXPECT_EQ(h.hops(g.index_of(a), g.index_of(c)), HopTable::kUnreachable);
  EXPECT_EQ(h.hops(g.index_of(c), g.index_of(b)), HopTable::kUnreachable);
  const auto comp = switch_components(g);
  EXPECT_EQ(comp[g.index_of(a)], comp[g.index_of(b)]);
  EXPECT_NE(comp[g.index_of(a)], comp[g.index_of(c)]);
}

TEST(HopTable, RandomGraphMatchesReferenceBfsOnManyThreads) {
  std::mt19937 rng(7);
  Topology t;
  const int n = 300;  // above the per-thread threshold, so the threaded path runs
  const unsigned ports = 6;
  std::vector<NodeIndex> sw;
  for (int i = 0; i < n; ++i) sw.push_back(add(t, NodeType::kSwitch, ports));
  std::vector<unsigned> used(n, 0);
  for (int e = 0; e < n * 2; ++e) {
    const int a = rng() % n;
    const int b = rng() % n;
    if (used[a] == ports || used[b] == ports || a == b) continue;
    ASSERT_TRUE(t.connect(sw[a], ++used[a], sw[b], ++used[b]).ok());
  }
  const auto g = SwitchGraph::build(t);
  const auto h = HopTable::build(g, 4);
  for (int a = 0; a < n; a += 7) {
    const auto ref = bfs(t, sw[a]);
    for (int b = 0; b < n; ++b) {
      const int want = ref[sw[b]] < 0 ? HopTable::kUnreachable : ref[sw[b]];
      ASSERT_EQ(h.hops(g.index_of(sw[a]), g.index_of(sw[b])), want) << a << "->" << b;
    }
  }
}

TEST(SwitchGraph, PortsKnowTheirPeersAndLinksListOnlySwitches) {
  Topology t;
  const NodeIndex s0 = add(t, NodeType::kSwitch, 4);
  const NodeIndex s1 = add(t, NodeType::kSwitch, 4);
  const NodeIndex h = add(t, NodeType::kCa, 1);
  ASSERT_TRUE(t.connect(s0, 3, s1, 4).ok());
  ASSERT_TRUE(t.connect(s0, 1, h, 1).ok());
  const auto g = SwitchGraph::build(t);
  const SwitchIndex i0 = g.index_of(s0);
  const SwitchIndex i1 = g.index_of(s1);
  EXPECT_EQ(g.index_of(h), kNoSwitch);
  EXPECT_EQ(g.node(i0), s0);
  EXPECT_EQ(g.num_ports(i0), 4);
  EXPECT_EQ(g.peer_switch(i0, 3), i1);
  EXPECT_EQ(g.peer_port(i0, 3), 4);
  EXPECT_EQ(g.peer_switch(i1, 4), i0);
  EXPECT_EQ(g.peer_switch(i0, 1), kNoSwitch);
  EXPECT_EQ(g.peer_node(i0, 1), h);
  EXPECT_EQ(g.peer_node(i0, 2), kNoNode);
  ASSERT_EQ(g.links(i0).size(), 1u);
  EXPECT_EQ(g.links(i0)[0].port, 3);
  EXPECT_EQ(g.num_switch_channels(), 2u);
  EXPECT_EQ(g.num_slots(), 10u);
  EXPECT_EQ(g.slot(i1, 0), 5u);
}

TEST(LidTargets, SwitchLidsGoToPortZeroCaLidsToTheFacingPort) {
  Topology t;
  const NodeIndex s0 = add(t, NodeType::kSwitch, 4);
  const NodeIndex h0 = add(t, NodeType::kCa, 2);
  const NodeIndex lonely = add(t, NodeType::kCa, 1);
  ASSERT_TRUE(t.connect(s0, 3, h0, 2).ok());
  LidMap lids;
  ASSERT_TRUE(lids.assign(s0, 0, 1, 0).ok());
  ASSERT_TRUE(lids.assign(h0, 2, 4, 2).ok());  // LIDs 4..7
  ASSERT_TRUE(lids.assign(lonely, 1, 8, 0).ok());
  const auto g = SwitchGraph::build(t);
  const auto tg = lid_targets(t, g, lids);
  ASSERT_EQ(tg.size(), 9u);
  EXPECT_EQ(tg[1].sw, g.index_of(s0));
  EXPECT_EQ(tg[1].port, 0);
  EXPECT_EQ(tg[2].sw, kNoSwitch);
  for (int l = 4; l <= 7; ++l) {
    EXPECT_EQ(tg[l].sw, g.index_of(s0));
    EXPECT_EQ(tg[l].port, 3);
  }
  EXPECT_EQ(tg[8].sw, kNoSwitch);  // CA port not cabled
}

TEST(ParallelForDynamic, EveryItemRunsOnceInRangesOfAtMostTheGrain) {
  for (const auto& c : {std::tuple<std::size_t, std::size_t, unsigned>{1000, 7, 3}, {5, 64, 2}, {64, 1, 4}, {0, 8, 2}}) {
    // Named copies, not a structured binding: the lambda below captures them (clang before 16 cannot).
    const std::size_t count = std::get<0>(c), grain = std::get<1>(c);
    const unsigned threads = std::get<2>(c);
    SCOPED_TRACE(std::to_string(count) + " items, grain " + std::to_string(grain));
    std::vector<std::atomic<int>> runs(count);
    std::atomic<bool> bad_range{false};
    parallel_for_dynamic(
        count, threads,
        [&](std::size_t first, std::size_t last) {
          if (first >= last || last > count || last - first > grain) bad_range = true;
          for (std::size_t i = first; i < last; ++i) ++runs[i];
        },
        grain);
    EXPECT_FALSE(bad_range);
    for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(runs[i], 1) << "item " << i;
  }
}

}  // namespace
}  // namespace smd::hop_table_test
