// Discovery against FakeFabric: the discovered graph must equal the generated one, node for node and
// cable for cable, and failures must name GUID and directed path.
#include "smd/sweep/discovery.h"

#include <gtest/gtest.h>

#include <deque>
#include <functional>
#include <optional>

#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::discovery_test {
namespace {

using test::SweepRig;

// BFS hop distance from the SM's node over cables, computed here independently of discovery.
std::vector<unsigned> hop_distances(const Topology& t) {
  std::vector<unsigned> dist(t.size(), ~0u);
  std::deque<NodeIndex> q{t.sm_node};
  dist[t.sm_node] = 0;
  while (!q.empty()) {
    const NodeIndex n = q.front();
    q.pop_front();
    if (n != t.sm_node && !t.node(n).is_switch()) continue;
    for (const Port& p : t.node(n).ports) {
      if (p.connected() && dist[p.peer] == ~0u) {
        dist[p.peer] = dist[n] + 1;
        q.push_back(p.peer);
      }
    }
  }
  return dist;
}

void expect_same_fabric(const Topology& want, const Topology& got) {
  ASSERT_EQ(got.size(), want.size());
  EXPECT_EQ(got.switches().size(), want.switches().size());
  EXPECT_EQ(got.link_count(), want.link_count());
  const auto dist = hop_distances(want);
  for (NodeIndex w = 0; w < want.size(); ++w) {
    const Node& wn = want.node(w);
    auto g = got.find(wn.guid);
    ASSERT_TRUE(g.has_value()) << wn.description;
    const Node& gn = got.node(*g);
    EXPECT_EQ(gn.description, wn.description);
    EXPECT_EQ(gn.num_ports, wn.num_ports);
    EXPECT_EQ(gn.dr_path.size(), dist[w]) << "BFS discovery reaches every node on a shortest path";
    for (PortNum p = 1; p <= wn.num_ports; ++p) {
      const Port& wp = wn.ports[p];
      const Port& gp = gn.ports[p];
      ASSERT_EQ(gp.connected(), wp.connected()) << wn.description << "[" << int(p) << "]";
      if (!wp.connected()) continue;
      EXPECT_EQ(got.node(gp.peer).guid, want.node(wp.peer).guid);
      EXPECT_EQ(gp.peer_port, wp.peer_port);
    }
  }
}

// A generated fabric, found node for node and cable for cable; the rows differ in the fabric, the loss
// and the one figure each checks besides.
struct FoundFabric {
  std::string name{};
  std::function<Result<Topology>()> fabric{};
  unsigned retries = 3;
  double loss = 0;  ///< share of SMP attempts dropped (seed `seed`); with loss, retries must show
  unsigned seed = 0;
  bool sm_where_it_sits = false;       ///< the discovered SM node and port are the generated ones
  std::optional<std::size_t> links{};  ///< cables discovery must count
};

class GeneratedFabric : public ::testing::TestWithParam<FoundFabric> {};

TEST_P(GeneratedFabric, IsFoundNodeForNodeAndCableForCable) {
  const FoundFabric& row = GetParam();
  auto t = row.fabric();
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()), row.retries);
  if (row.loss > 0) rig.fabric.set_loss(row.loss, row.seed);
  ObservedFabric d = discover_fabric(rig.batch);
  EXPECT_TRUE(d.problems.empty()) << d.problems.front().to_string();
  expect_same_fabric(rig.topo, *d.topo);
  if (row.sm_where_it_sits) {
    EXPECT_EQ(d.topo->sm_node, *d.topo->find(rig.topo.node(rig.topo.sm_node).guid));
    EXPECT_EQ(d.topo->sm_port, rig.topo.sm_port);
  }
  if (row.links) {
    EXPECT_EQ(d.topo->link_count(), *row.links);
  }
  if (row.loss > 0) {
    EXPECT_GT(rig.fabric.stats().retries, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Discovery, GeneratedFabric,
                         ::testing::Values(
                             FoundFabric{
                                 .name = "FindsEveryNodeAndCableOfAKaryTree",
                                 .fabric = [] { return make_kary_ntree(4, 2); },
                                 .sm_where_it_sits = true,
                             },
                             FoundFabric{
                                 .name = "ParallelLinksAreDistinctCables",
                                 .fabric = [] { return make_two_switch(3, 2); },
                                 .links = 3u + 4u,
                             },
                             FoundFabric{
                                 .name = "SurvivesLossWithRetries",
                                 .fabric = [] { return make_kary_ntree(4, 2); },
                                 .retries = 8,
                                 .loss = 0.05,
                                 .seed = 7,
                             }),
                         test::RowName());

TEST(Discovery, SilentSwitchIsReportedAndTheRestIsFound) {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()), 1);
  const NodeIndex spine = rig.topo.switches().back();
  rig.fabric.silence(spine);
  ObservedFabric d = discover_fabric(rig.batch);
  ASSERT_FALSE(d.problems.empty());
  EXPECT_NE(d.problems.front().to_string().find("NodeInfo"), std::string::npos);
  EXPECT_EQ(d.topo->size(), rig.topo.size() - 1);
  EXPECT_FALSE(d.topo->find(rig.topo.node(spine).guid).has_value());
}

// A leaf switch that does not host the SM's node, in the reference topology.
NodeIndex leaf_away_from_sm(const Topology& t) {
  const NodeIndex sm_leaf = t.node(t.sm_node).ports[t.sm_port].peer;
  for (NodeIndex s : t.switches()) {
    if (s == sm_leaf) continue;
    for (const Port& p : t.node(s).ports) {
      if (p.connected() && !t.node(p.peer).is_switch()) return s;
    }
  }
  return kNoNode;
}

TEST(Discovery, ResumeAsksOnlyForWhatIsMissing) {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()), 1);
  const NodeIndex leaf = leaf_away_from_sm(rig.topo);
  ASSERT_NE(leaf, kNoNode);
  rig.fabric.silence(leaf);
  ObservedFabric first = discover_fabric(rig.batch);
  ASSERT_FALSE(first.problems.empty());

  // What a re-sweep must ask, counted on the reference graph: NodeInfo over every spine cable into the
  // leaf, then the leaf's NodeDescription, SwitchInfo and PortInfo 0..N, then NodeInfo, NodeDescription
  // and PortInfo for each host behind it.
  const Node& l = rig.topo.node(leaf);
  std::size_t spine_cables = 0, hosts = 0;
  for (PortNum p = 1; p <= l.num_ports; ++p) {
    if (!l.ports[p].connected()) continue;
    (rig.topo.node(l.ports[p].peer).is_switch() ? spine_cables : hosts) += 1;
  }
  EXPECT_EQ(discovery_gaps(first), spine_cables);
  const std::size_t want = spine_cables + 2 + (l.num_ports + 1u) + 3 * hosts;

  rig.fabric.speak(leaf);
  const auto sent_before = rig.fabric.stats().sent;
  ObservedFabric second = resume_discovery(rig.batch, first);
  EXPECT_EQ(rig.fabric.stats().sent - sent_before, want);
  EXPECT_TRUE(second.problems.empty()) << second.problems.front().to_string();
  EXPECT_EQ(discovery_gaps(second), 0u);
  expect_same_fabric(rig.topo, *second.topo);
}

TEST(Discovery, ResumeOfACompleteSweepSendsNothing) {
  auto t = make_kary_ntree(2, 3);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  ObservedFabric first = discover_fabric(rig.batch);
  ASSERT_TRUE(first.problems.empty());
  EXPECT_EQ(discovery_gaps(first), 0u);
  const auto sent_before = rig.fabric.stats().sent;
  ObservedFabric second = resume_discovery(rig.batch, first);
  EXPECT_EQ(rig.fabric.stats().sent, sent_before);
  expect_same_fabric(rig.topo, *second.topo);
}

TEST(Discovery, DuplicateGuidNamesBothPaths) {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  const auto& sws = rig.topo.switches();
  // Two distinct leaves answer with one GUID.
  rig.fabric.override_guid(sws[1], rig.topo.node(sws[0]).guid);
  ObservedFabric d = discover_fabric(rig.batch);
  bool found = false;
  for (const auto& p : d.problems) {
    const std::string s = p.to_string();
    if (s.find("duplicate GUID") != std::string::npos) {
      found = true;
      EXPECT_NE(s.find("DR path 0,"), std::string::npos) << s;
      EXPECT_NE(s.find("first seen at 0,"), std::string::npos) << s;
    }
  }
  EXPECT_TRUE(found);
}

// When the vet leaves nodes out, every per-node record must follow the renumbering, or a later resume
// would ask (or not ask) for the wrong node's attributes.
TEST(Discovery, NodesLeftOutKeepPerNodeRecordsAligned) {
  auto t = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  const NodeIndex leaf = leaf_away_from_sm(rig.topo);
  ASSERT_NE(leaf, kNoNode);
  rig.topo.mutable_node(leaf).lft_cap = 0;  // the vet leaves the leaf and its hosts out
  ObservedFabric d = discover_fabric(rig.batch);
  ASSERT_LT(d.topo->size(), rig.topo.size());
  ASSERT_EQ(d.nodes.size(), d.topo->size());
  for (NodeIndex n = 0; n < d.topo->size(); ++n) {
    const Node& node = d.topo->node(n);
    const auto want = rig.topo.find(node.guid);
    ASSERT_TRUE(want.has_value());
    EXPECT_TRUE(d.nodes[n].description_read) << node.description;
    EXPECT_EQ(node.description, rig.topo.node(*want).description);
    EXPECT_EQ(d.nodes[n].ports.size(), node.ports.size()) << node.description;
  }
}

}  // namespace
}  // namespace smd::discovery_test
