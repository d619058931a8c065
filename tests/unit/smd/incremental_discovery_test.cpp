// Incremental discovery against FakeFabric: after cables go down or come back, re-reading only the
// switches that changed must give the fabric a full discovery of the same fabric gives (the witness),
// with directed paths that really lead to each node, for the SMPs counted here from the reference graph.
#include "smd/sweep/incremental_discovery.h"

#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <memory>
#include <set>
#include <tuple>

#include "fabric_witness.h"
#include "fake_fabric.h"
#include "mad/codec/node_info.h"
#include "routing/fabric_gen/fabric_gen.h"

namespace smd {
namespace {

struct Rig {
  explicit Rig(Topology t) : topo(std::move(t)), fabric(io, topo, 1), batch(io, fabric) {}
  Topology topo;
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard{io.get_executor()};
  test::FakeFabric fabric;
  SmpBatch batch;

  Guid guid(NodeIndex n) const { return topo.node(n).guid; }
  std::uint64_t sent() const { return fabric.stats().sent; }
};

// The 4-ary 3-tree (48 switches, 64 hosts), the SM on the first host. (A Rig holds references into
// itself, so it lives on the heap rather than being moved.)
// Every cabled port starts Active, as an SM left it: an incremental sweep starts from a configured
// fabric, and checks with NodeInfo any cabled port it finds trained again (not Active).
std::unique_ptr<Rig> kary_rig() {
  auto t = make_kary_ntree(4, 3);
  EXPECT_TRUE(t.ok());
  auto rig = std::make_unique<Rig>(std::move(t.value()));
  for (NodeIndex n = 0; n < rig->topo.size(); ++n) {
    for (const Port& p : rig->topo.node(n).ports) {
      if (p.connected()) rig->fabric.set_port(n, p.num, 4, 0);
    }
  }
  return rig;
}

using test::Cable;
using test::cables;
using test::guids;

// The SM's leaf and its first port cabled to another switch: the cable most directed paths cross.
std::pair<NodeIndex, PortNum> sm_leaf_uplink(const Topology& t) {
  const NodeIndex leaf = t.node(t.sm_node).ports[t.sm_port].peer;
  for (const Port& p : t.node(leaf).ports) {
    if (p.connected() && t.node(p.peer).is_switch()) return {leaf, p.num};
  }
  return {kNoNode, 0};
}

// The fabric the incremental discovery found must be the one a full discovery finds now, and every
// directed path in it must reach, by NodeInfo on the fake fabric, the node (and CA port) it is kept for.
void expect_matches_full_discovery(Rig& rig, const ObservedFabric& got) {
  ObservedFabric full = discover_fabric(rig.batch);
  ASSERT_TRUE(full.problems.empty()) << full.problems.front().to_string();
  EXPECT_EQ(guids(*got.topo), guids(*full.topo));
  EXPECT_EQ(cables(*got.topo), cables(*full.topo));
  EXPECT_TRUE(got.problems.empty()) << got.problems.front().to_string();
  const Topology& t = *got.topo;
  ASSERT_EQ(got.nodes.size(), t.size());
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    std::vector<std::pair<mad::DrPath, PortNum>> paths{{mad::DrPath(node.dr_path), 0}};
    if (!node.is_switch()) {
      for (const Port& p : node.ports) {
        if (p.connected() && !(n == t.sm_node && p.num == t.sm_port))
          paths.emplace_back(got.port_path(n, p.num), p.num);
      }
    }
    for (const auto& [path, port] : paths) {
      mad::SmpRequest req;
      req.path = path;
      req.attr_id = mad::attr::kNodeInfo;
      rig.batch.submit(req, [&, port](const mad::SmpReply& r) {
        ASSERT_EQ(r.outcome, mad::SmpOutcome::kOk) << node.description << " via " << path.to_string();
        const auto ni = mad::NodeInfo::decode(r.data);
        EXPECT_EQ(ni.node_guid, node.guid) << node.description << " via " << path.to_string();
        if (port != 0) {
          EXPECT_EQ(ni.local_port_num, port) << node.description << " via " << path.to_string();
        }
      });
    }
  }
  rig.batch.wait();
}

// SMPs to read suspect switch `n` (found in `d` by GUID): one PortInfo per hop of its directed path
// (is the way there still up?) and one per port.
std::size_t reads(const Rig& rig, const ObservedFabric& d, NodeIndex n) {
  const Node& node = d.topo->node(*d.topo->find(rig.guid(n)));
  return node.dr_path.size() + node.num_ports + 1u;
}

TEST(IncrementalDiscovery, LostCableIsReadFromItsTwoEndsAndPathsMoveOffIt) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  ASSERT_TRUE(before.problems.empty());
  const auto [leaf, port] = sm_leaf_uplink(rig.topo);
  ASSERT_NE(leaf, kNoNode);
  const NodeIndex up = rig.topo.node(leaf).ports[port].peer;
  // Directed paths that cross the cable, in the sweep the incremental one starts from.
  std::size_t crossing = 0;
  const std::vector<std::uint8_t> leaf_path = before.topo->node(*before.topo->find(rig.guid(leaf))).dr_path;
  for (const Node& node : before.topo->nodes()) {
    crossing += node.dr_path.size() > leaf_path.size() &&
                std::equal(leaf_path.begin(), leaf_path.end(), node.dr_path.begin()) &&
                node.dr_path[leaf_path.size()] == port;
  }
  ASSERT_GT(crossing, 0u) << "the test needs paths over the cable it fails";

  rig.fabric.unlink(leaf, port);
  const auto sent = rig.sent();
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf), rig.guid(up)});
  ASSERT_TRUE(r.ok) << r.full_sweep_because;
  // The near end first (its path checked hop by hop, then every PortInfo), then the far end the same
  // way over its new path, then one SwitchInfo per switch; nothing else.
  const std::size_t want = reads(rig, before, leaf) + reads(rig, r.fabric, up) + rig.topo.switches().size();
  EXPECT_EQ(rig.sent() - sent, want);
  EXPECT_EQ(r.switches_reread, 2u);
  EXPECT_EQ(r.cables_lost, 1u);
  EXPECT_EQ(r.cables_gained, 0u);
  EXPECT_EQ(r.nodes_lost, 0u);
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, OneTrapIsEnoughTheLostCableNamesItsOtherEnd) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port] = sm_leaf_uplink(rig.topo);
  const NodeIndex up = rig.topo.node(leaf).ports[port].peer;
  rig.fabric.unlink(leaf, port);
  const auto sent = rig.sent();
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
  ASSERT_TRUE(r.ok) << r.full_sweep_because;
  // The leaf; the far end of its lost cable, named by the leaf's own PortInfo; one poll.
  const std::size_t want = reads(rig, before, leaf) + reads(rig, r.fabric, up) + rig.topo.switches().size();
  EXPECT_EQ(rig.sent() - sent, want);
  EXPECT_EQ(r.switches_reread, 2u);
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, TrapFromTheFarEndOnlyIsReadWithoutATimeout) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port] = sm_leaf_uplink(rig.topo);
  const NodeIndex up = rig.topo.node(leaf).ports[port].peer;
  rig.fabric.unlink(leaf, port);
  const auto sent = rig.sent();
  const auto timeouts = rig.fabric.stats().timeouts;
  // The far end's directed path crosses the lost cable: checking it hop by hop finds the near end.
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(up)});
  ASSERT_TRUE(r.ok) << r.full_sweep_because;
  EXPECT_EQ(rig.fabric.stats().timeouts, timeouts);
  const std::size_t old_path_of_up = before.topo->node(*before.topo->find(rig.guid(up))).dr_path.size();
  EXPECT_EQ(rig.sent() - sent,
            old_path_of_up + reads(rig, before, leaf) + reads(rig, r.fabric, up) + rig.topo.switches().size());
  EXPECT_EQ(r.switches_reread, 2u);
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, ChangeNoTrapNamedIsFoundByPortStateChange) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port] = sm_leaf_uplink(rig.topo);
  const NodeIndex up = rig.topo.node(leaf).ports[port].peer;
  // A second lost cable whose trap never came: the last switch's first port to another switch.
  const NodeIndex far = rig.topo.switches().back();
  PortNum far_port = 0;
  for (const Port& p : rig.topo.node(far).ports) {
    if (far_port == 0 && p.connected() && rig.topo.node(p.peer).is_switch()) far_port = p.num;
  }
  ASSERT_NE(far_port, 0);
  const NodeIndex far_peer = rig.topo.node(far).ports[far_port].peer;
  ASSERT_TRUE(far != leaf && far != up && far_peer != leaf && far_peer != up);
  rig.fabric.unlink(leaf, port);
  rig.fabric.unlink(far, far_port);
  const auto sent = rig.sent();
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
  ASSERT_TRUE(r.ok) << r.full_sweep_because;
  // The trap's cable (both ends), a poll that finds PortStateChange on the other cable (switches whose
  // path crossed it do not answer), its two ends, and a quiet poll: still a small part of a discovery.
  EXPECT_LT(rig.sent() - sent, before.smps / 4);
  EXPECT_EQ(r.switches_reread, 4u);
  EXPECT_EQ(r.cables_lost, 2u);
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, HostWhoseCableWentDownLeavesTheFabric) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  NodeIndex host = kNoNode;
  for (NodeIndex c : rig.topo.cas()) {
    if (c != rig.topo.sm_node) host = c;  // the last one: far from the SM
  }
  const Port& cable = rig.topo.node(host).ports[1];
  rig.fabric.unlink(host, 1);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(cable.peer)});
  ASSERT_TRUE(r.ok) << r.full_sweep_because;
  EXPECT_EQ(r.nodes_lost, 1u);
  EXPECT_EQ(r.fabric.topo->size(), rig.topo.size() - 1);
  EXPECT_FALSE(r.fabric.topo->find(rig.guid(host)).has_value());
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, CableBackIsCabledAgainFromEitherEnd) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port] = sm_leaf_uplink(rig.topo);
  const NodeIndex up = rig.topo.node(leaf).ports[port].peer;
  rig.fabric.unlink(leaf, port);
  IncrementalDiscovery lost = rediscover_changed(rig.batch, before, {rig.guid(leaf), rig.guid(up)});
  ASSERT_TRUE(lost.ok) << lost.full_sweep_because;

  rig.fabric.relink(leaf, port);
  IncrementalDiscovery back = rediscover_changed(rig.batch, lost.fabric, {rig.guid(up)});
  ASSERT_TRUE(back.ok) << back.full_sweep_because;
  EXPECT_EQ(back.cables_gained, 1u);
  EXPECT_EQ(back.cables_lost, 0u);
  EXPECT_EQ(cables(*back.fabric.topo), cables(rig.topo));
  expect_matches_full_discovery(rig, back.fabric);
}

TEST(IncrementalDiscovery, NodeNotSeenBeforeNeedsAFullDiscovery) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const NodeIndex host = rig.topo.cas().back();
  const NodeIndex leaf = rig.topo.node(host).ports[1].peer;
  rig.fabric.unlink(host, 1);
  const ObservedFabric before = discover_fabric(rig.batch);  // never saw the host
  ASSERT_FALSE(before.topo->find(rig.guid(host)).has_value());
  rig.fabric.relink(host, 1);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.full_sweep_because.find(format_guid(rig.guid(host)) + ", new to this SM"), std::string::npos)
      << r.full_sweep_because;
  EXPECT_NE(r.full_sweep_because.find(format_guid(rig.guid(leaf))), std::string::npos) << r.full_sweep_because;
}

TEST(IncrementalDiscovery, SwitchThatNoLongerAnswersNeedsAFullDiscovery) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port] = sm_leaf_uplink(rig.topo);
  const NodeIndex quiet = rig.topo.switches().back();
  ASSERT_NE(quiet, leaf);
  rig.fabric.unlink(leaf, port);
  rig.fabric.silence(quiet);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.full_sweep_because.find(format_guid(rig.guid(quiet))), std::string::npos) << r.full_sweep_because;
  EXPECT_NE(r.full_sweep_because.find("SwitchInfo"), std::string::npos) << r.full_sweep_because;
}

TEST(IncrementalDiscovery, SwitchThatLostItsPollAnswersIsAskedAgain) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port] = sm_leaf_uplink(rig.topo);
  const NodeIndex up = rig.topo.node(leaf).ports[port].peer;
  const NodeIndex lossy = rig.topo.switches().back();
  rig.fabric.unlink(leaf, port);
  // Every PortInfo of the suspects gets through; the lossy switch loses one SwitchInfo with its retry.
  rig.fabric.drop_next(lossy, 2);
  const auto sent = rig.sent();
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf), rig.guid(up)});
  ASSERT_TRUE(r.ok) << r.full_sweep_because;
  EXPECT_EQ(rig.sent() - sent, reads(rig, before, leaf) + reads(rig, r.fabric, up) + rig.topo.switches().size() +
                                   1 /* its retry */ + 1 /* asked again */);
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, TrapFromAnUnknownNodeNeedsAFullDiscovery) {
  const auto owned = kary_rig();
  Rig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {0x1234});
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.full_sweep_because.find("0x0000000000001234"), std::string::npos) << r.full_sweep_because;
}

}  // namespace
}  // namespace smd
