// Incremental discovery against FakeFabric: after cables go down or come back, re-reading only the
// switches that changed must give the fabric a full discovery of the same fabric gives (the witness),
// with directed paths that really lead to each node, for the SMPs counted here from the reference graph.
#include "smd/sweep/incremental_discovery.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "tests/unit/smd/fabric_witness.h"
#include "mad/codec/node_info.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::incremental_discovery_test {
namespace {

using test::SweepRig;

// The 4-ary 3-tree (48 switches, 64 hosts), the SM on the first host. (A rig holds references into
// itself, so it lives on the heap rather than being moved.)
// Every cabled port starts Active, as an SM left it: an incremental sweep starts from a configured
// fabric, and checks with NodeInfo any cabled port it finds trained again (not Active).
std::unique_ptr<SweepRig> kary_rig() {
  auto t = make_kary_ntree(4, 3);
  EXPECT_TRUE(t.ok());
  auto rig = std::make_unique<SweepRig>(std::move(t.value()), 1);
  rig->activate_cabled_ports();  // the generator's ports hold no LID yet: every one Active with LID 0
  return rig;
}

using test::Cable;
using test::cables;
using test::guids;

using test::sm_leaf_uplink;

// The fabric the incremental discovery found must be the one a full discovery finds now, and every
// directed path in it must reach, by NodeInfo on the fake fabric, the node (and CA port) it is kept for.
void expect_matches_full_discovery(SweepRig& rig, const ObservedFabric& got) {
  ObservedFabric full = discover_fabric(rig.batch);
  ASSERT_TRUE(full.problems.empty()) << full.problems.front().to_string();
  EXPECT_EQ(guids(*got.topo), guids(*full.topo));
  EXPECT_EQ(cables(*got.topo), cables(*full.topo));
  EXPECT_TRUE(got.problems.empty()) << got.problems.front().to_string();
  const Topology& t = *got.topo;
  ASSERT_EQ(got.nodes.size(), t.size());
  test::probe_kept_paths(rig.batch, got, [&](const test::KeptPath& k, const mad::SmpReply& r) {
    const Node& node = t.node(k.node);
    ASSERT_EQ(r.outcome, mad::SmpOutcome::kOk) << node.description << " via " << k.path.to_string();
    const auto ni = mad::NodeInfo::decode(r.data);
    EXPECT_EQ(ni.node_guid, node.guid) << node.description << " via " << k.path.to_string();
    if (k.port != 0) {
      EXPECT_EQ(ni.local_port_num, k.port) << node.description << " via " << k.path.to_string();
    }
  });
}

// SMPs to read suspect switch `n` (found in `d` by GUID): one PortInfo per hop of its directed path
// (is the way there still up?) and one per port.
std::size_t reads(const SweepRig& rig, const ObservedFabric& d, NodeIndex n) {
  const Node& node = d.topo->node(*d.topo->find(rig.guid(n)));
  return node.dr_path.size() + node.num_ports + 1u;
}

// Directed paths in `d` that cross port `port` of the node with GUID `near`.
std::size_t paths_crossing(const ObservedFabric& d, Guid near, PortNum port) {
  std::size_t crossing = 0;
  const std::vector<std::uint8_t> near_path = d.topo->node(*d.topo->find(near)).dr_path;
  for (const Node& node : d.topo->nodes()) {
    crossing += node.dr_path.size() > near_path.size() &&
                std::equal(near_path.begin(), near_path.end(), node.dr_path.begin()) &&
                node.dr_path[near_path.size()] == port;
  }
  return crossing;
}

// The SM leaf's first uplink goes down. Whichever of its ends sends the trap, the incremental discovery
// reads the near end first (its path checked hop by hop, then every PortInfo), then the far end the same
// way over its new path, then one SwitchInfo per switch; nothing else. When only the far end traps, its
// old directed path (which crosses the lost cable) is checked hop by hop first and finds the near end.
// The rows differ in the traps, in the poll answers lost, and in the figures each checks besides.
struct UplinkLoss {
  std::string name{};
  bool near_end_traps = false;      ///< the SM's leaf sends a trap
  bool far_end_traps = false;       ///< the switch at the cable's other end sends one
  bool set_up_checked = false;      ///< the first discovery is clean and directed paths cross the cable
  unsigned poll_attempts_lost = 0;  ///< SwitchInfo attempts the last switch loses
  std::size_t extra_smps = 0;       ///< SMPs those losses cost
  bool no_timeout = false;          ///< no SMP may time out
  std::optional<std::size_t> switches_reread{};
  std::optional<std::size_t> cables_lost{};
  std::optional<std::size_t> cables_gained{};
  std::optional<std::size_t> nodes_lost{};
};

class LostUplink : public ::testing::TestWithParam<UplinkLoss> {};

TEST_P(LostUplink, IsReadFromItsTwoEndsThenOnePoll) {
  const UplinkLoss& row = GetParam();
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  if (row.set_up_checked) {
    ASSERT_TRUE(before.problems.empty());
  }
  const auto [leaf, port, up] = sm_leaf_uplink(rig.topo);
  if (row.set_up_checked) {
    ASSERT_NE(leaf, kNoNode);
    // Directed paths that cross the cable, in the sweep the incremental one starts from.
    ASSERT_GT(paths_crossing(before, rig.guid(leaf), port), 0u) << "the test needs paths over the cable it fails";
  }
  rig.fabric.unlink(leaf, port);
  if (row.poll_attempts_lost > 0) rig.fabric.drop_next(rig.topo.switches().back(), row.poll_attempts_lost);
  const auto sent = rig.sent();
  const auto timeouts = rig.fabric.stats().timeouts;
  std::vector<Guid> traps;
  if (row.near_end_traps) traps.push_back(rig.guid(leaf));
  if (row.far_end_traps) traps.push_back(rig.guid(up));
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, traps);
  ASSERT_TRUE(r.ok()) << r.full_sweep_because();
  if (row.no_timeout) {
    EXPECT_EQ(rig.fabric.stats().timeouts, timeouts);
  }
  const std::size_t old_path_of_up =
      row.near_end_traps ? 0 : before.topo->node(*before.topo->find(rig.guid(up))).dr_path.size();
  EXPECT_EQ(rig.sent() - sent, old_path_of_up + reads(rig, before, leaf) + reads(rig, r.fabric, up) +
                                   rig.topo.switches().size() + row.extra_smps);
  if (row.switches_reread) {
    EXPECT_EQ(r.switches_reread, *row.switches_reread);
  }
  if (row.cables_lost) {
    EXPECT_EQ(r.cables_lost, *row.cables_lost);
  }
  if (row.cables_gained) {
    EXPECT_EQ(r.cables_gained, *row.cables_gained);
  }
  if (row.nodes_lost) {
    EXPECT_EQ(r.nodes_lost, *row.nodes_lost);
  }
  expect_matches_full_discovery(rig, r.fabric);
}

INSTANTIATE_TEST_SUITE_P(IncrementalDiscovery, LostUplink,
                         ::testing::Values(
                             UplinkLoss{
                                 .name = "LostCableIsReadFromItsTwoEndsAndPathsMoveOffIt",
                                 .near_end_traps = true,
                                 .far_end_traps = true,
                                 .set_up_checked = true,
                                 .switches_reread = 2,
                                 .cables_lost = 1,
                                 .cables_gained = 0,
                                 .nodes_lost = 0,
                             },
                             // The far end of the lost cable is named by the leaf's own PortInfo.
                             UplinkLoss{
                                 .name = "OneTrapIsEnoughTheLostCableNamesItsOtherEnd",
                                 .near_end_traps = true,
                                 .switches_reread = 2,
                             },
                             UplinkLoss{
                                 .name = "TrapFromTheFarEndOnlyIsReadWithoutATimeout",
                                 .far_end_traps = true,
                                 .no_timeout = true,
                                 .switches_reread = 2,
                             },
                             // Every PortInfo of the suspects gets through; the last switch loses one
                             // SwitchInfo with its retry, and is asked again.
                             UplinkLoss{
                                 .name = "SwitchThatLostItsPollAnswersIsAskedAgain",
                                 .near_end_traps = true,
                                 .far_end_traps = true,
                                 .poll_attempts_lost = 2,
                                 .extra_smps = 1 /* its retry */ + 1 /* asked again */,
                             }),
                         test::RowName());

TEST(IncrementalDiscovery, ChangeNoTrapNamedIsFoundByPortStateChange) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port, up] = sm_leaf_uplink(rig.topo);
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
  ASSERT_TRUE(r.ok()) << r.full_sweep_because();
  // The trap's cable (both ends), a poll that finds PortStateChange on the other cable (switches whose
  // path crossed it do not answer), its two ends, and a quiet poll: still a small part of a discovery.
  EXPECT_LT(rig.sent() - sent, before.smps / 4);
  EXPECT_EQ(r.switches_reread, 4u);
  EXPECT_EQ(r.cables_lost, 2u);
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, HostWhoseCableWentDownLeavesTheFabric) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  NodeIndex host = kNoNode;
  for (NodeIndex c : rig.topo.cas()) {
    if (c != rig.topo.sm_node) host = c;  // the last one: far from the SM
  }
  const Port& cable = rig.topo.node(host).ports[1];
  rig.fabric.unlink(host, 1);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(cable.peer)});
  ASSERT_TRUE(r.ok()) << r.full_sweep_because();
  EXPECT_EQ(r.nodes_lost, 1u);
  EXPECT_EQ(r.fabric.topo->size(), rig.topo.size() - 1);
  EXPECT_FALSE(r.fabric.topo->find(rig.guid(host)).has_value());
  expect_matches_full_discovery(rig, r.fabric);
}

TEST(IncrementalDiscovery, CableBackIsCabledAgainFromEitherEnd) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port, up] = sm_leaf_uplink(rig.topo);
  rig.fabric.unlink(leaf, port);
  IncrementalDiscovery lost = rediscover_changed(rig.batch, before, {rig.guid(leaf), rig.guid(up)});
  ASSERT_TRUE(lost.ok()) << lost.full_sweep_because();

  rig.fabric.relink(leaf, port);
  IncrementalDiscovery back = rediscover_changed(rig.batch, lost.fabric, {rig.guid(up)});
  ASSERT_TRUE(back.ok()) << back.full_sweep_because();
  EXPECT_EQ(back.cables_gained, 1u);
  EXPECT_EQ(back.cables_lost, 0u);
  EXPECT_EQ(cables(*back.fabric.topo), cables(rig.topo));
  expect_matches_full_discovery(rig, back.fabric);
}

TEST(IncrementalDiscovery, NodeNotSeenBeforeNeedsAFullDiscovery) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const NodeIndex host = rig.topo.cas().back();
  const NodeIndex leaf = rig.topo.node(host).ports[1].peer;
  rig.fabric.unlink(host, 1);
  const ObservedFabric before = discover_fabric(rig.batch);  // never saw the host
  ASSERT_FALSE(before.topo->find(rig.guid(host)).has_value());
  rig.fabric.relink(host, 1);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
  ASSERT_FALSE(r.ok());
  // Not a failure of the SMPs: the last sweep's fabric cannot explain the host.
  EXPECT_EQ(r.status.error().code, ErrorCode::kDeclined);
  EXPECT_NE(r.full_sweep_because().find(format_guid(rig.guid(host)) + ", new to this SM"), std::string::npos)
      << r.full_sweep_because();
  EXPECT_NE(r.full_sweep_because().find(format_guid(rig.guid(leaf))), std::string::npos) << r.full_sweep_because();
}

TEST(IncrementalDiscovery, SwitchThatNoLongerAnswersNeedsAFullDiscovery) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port, up] = sm_leaf_uplink(rig.topo);
  const NodeIndex quiet = rig.topo.switches().back();
  ASSERT_NE(quiet, leaf);
  rig.fabric.unlink(leaf, port);
  rig.fabric.silence(quiet);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
  ASSERT_FALSE(r.ok());
  // The fake fabric drops every SMP to a silenced switch: no answer, so asking again later may work.
  EXPECT_EQ(r.status.error().code, ErrorCode::kTimeout);
  EXPECT_NE(r.full_sweep_because().find(format_guid(rig.guid(quiet))), std::string::npos) << r.full_sweep_because();
  EXPECT_NE(r.full_sweep_because().find("SwitchInfo"), std::string::npos) << r.full_sweep_because();
}

TEST(IncrementalDiscovery, TrapFromAnUnknownNodeNeedsAFullDiscovery) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  IncrementalDiscovery r = rediscover_changed(rig.batch, before, {0x1234});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status.error().code, ErrorCode::kDeclined);
  EXPECT_NE(r.full_sweep_because().find("0x0000000000001234"), std::string::npos) << r.full_sweep_because();
}

// A fabric with nothing to start from (no last sweep) is declined before any SMP is sent.
TEST(IncrementalDiscovery, NoPreviousSweepIsDeclinedWithoutAnSmp) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const auto sent = rig.sent();
  IncrementalDiscovery r = rediscover_changed(rig.batch, ObservedFabric{}, {rig.guid(rig.topo.switches().front())});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status.error().code, ErrorCode::kDeclined);
  EXPECT_EQ(r.full_sweep_because(), "no previous sweep to start from");
  EXPECT_EQ(rig.sent(), sent);
}

// The cable lines of the log name both ends as NodeNames says: the node-name map's name where it has one.
TEST(IncrementalDiscovery, CableLogLinesUseTheMappedNames) {
  const auto owned = kary_rig();
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const auto [leaf, port, up] = sm_leaf_uplink(rig.topo);
  auto map = parse_node_name_map(format_guid(rig.guid(leaf)) + " \"rack-7 leaf\"\n", "test.map");
  ASSERT_TRUE(map.ok()) << map.error().message;
  const NodeNames names(std::make_shared<const NodeNameMap>(std::move(map.value())));

  std::ostringstream log;
  struct Restore {
    std::shared_ptr<spdlog::logger> previous = spdlog::default_logger();
    ~Restore() { spdlog::set_default_logger(previous); }
  } restore;
  spdlog::set_default_logger(
      std::make_shared<spdlog::logger>("capture", std::make_shared<spdlog::sinks::ostream_sink_mt>(log)));
  rig.fabric.unlink(leaf, port);
  IncrementalDiscovery lost = rediscover_changed(rig.batch, before, {rig.guid(leaf), rig.guid(up)}, names);
  ASSERT_TRUE(lost.ok()) << lost.full_sweep_because();
  rig.fabric.relink(leaf, port);
  IncrementalDiscovery back = rediscover_changed(rig.batch, lost.fabric, {rig.guid(up)}, names);
  ASSERT_TRUE(back.ok()) << back.full_sweep_because();

  const std::string mapped = format_guid(rig.guid(leaf)) + " (rack-7 leaf) port " + std::to_string(port);
  const std::string plain = describe_node(rig.topo.node(up));  // no map entry: its NodeDescription
  const std::string text = log.str();
  EXPECT_NE(text.find("cable down: "), std::string::npos) << text;
  EXPECT_NE(text.find(mapped), std::string::npos) << text;
  EXPECT_NE(text.find(plain), std::string::npos) << text;
  EXPECT_EQ(text.find(rig.topo.node(leaf).description), std::string::npos) << text;
}

}  // namespace
}  // namespace smd::incremental_discovery_test
