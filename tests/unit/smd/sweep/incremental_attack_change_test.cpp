// Attacks on the incremental heavy sweep (incremental_discovery.h, SweepScope::kChanged), part one: one
// change between two sweeps, a node that leaves and comes back, cables that move. The correct outcome of every case is
// either ok with the fabric a full discovery of the same fake fabric finds (same nodes, same cables by GUID and port,
// every directed path reaching its node by NodeInfo), or a fallback (ok == false) whose reason names a node GUID and a
// DR path. Never a crash, a hang, a wrong topology or a path that leads somewhere else.
#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <tuple>

#include "tests/unit/smd/fabric_witness.h"
#include "tests/unit/smd/incremental_attack.h"
#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/discovered_subset.h"
#include "smd/sweep/incremental_discovery.h"
#include "smd/sweep/sweep_runner.h"

namespace smd::incremental_attack_change_test {
namespace {

using namespace test;  // the shared attack helpers and the rig

// ---------------------------------------------------------------------------------------------------
// One change between two sweeps of the 4-ary 3-tree, one row each

// What the incremental discovery after the change must give besides never a wrong fabric. kOk: ok, and
// the case stops when it is not; kOkExpected: ok, but a fallback is one more failure rather than the
// end of the case; kOkOrNamedFallback: either correct outcome (expect_correct).
enum class Outcome : std::uint8_t { kOk, kOkExpected, kOkOrNamedFallback };

struct Change {
  std::string name{};
  bool init_and_active = false;  ///< run twice: ports as the fake starts them (Init), then all Active
  std::function<void(SweepRig&)> before_first_discovery{};  ///< a re-cabling the first discovery sees
  bool first_discovery_clean = false;                       ///< the first discovery must report nothing
  /// The change after the first discovery; it sets the GUIDs that send traps. It may ASSERT: the case
  /// then stops.
  std::function<void(SweepRig&, const ObservedFabric& before, std::vector<Guid>& traps)> change{};
  Outcome outcome = Outcome::kOk;
  std::optional<unsigned> cables_lost{};
  std::optional<unsigned> nodes_lost{};
  std::optional<std::size_t> nodes_kept{};  ///< nodes in the result
  bool nothing_changed = false;             ///< no cable lost or gained and no node lost
  std::string no_timeout_because{};         ///< not empty: no SMP may time out, and this says why
};

class OneChange : public ::testing::TestWithParam<Change> {};

TEST_P(OneChange, MatchesAFullDiscoveryOrFallsBackByName) {
  const Change& row = GetParam();
  for (const bool active : row.init_and_active ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
    auto owned = rig_of(make_kary_ntree(4, 3));
    SweepRig& rig = *owned;
    if (row.before_first_discovery) {
      ASSERT_NO_FATAL_FAILURE(row.before_first_discovery(rig));
    }
    if (active) rig.activate_cabled_ports();  // as after a configuring sweep
    const ObservedFabric before = discover_fabric(rig.batch);
    if (row.first_discovery_clean) {
      ASSERT_TRUE(before.problems.empty()) << before.problems.front().to_string();
    }
    std::vector<Guid> traps;
    ASSERT_NO_FATAL_FAILURE(row.change(rig, before, traps));
    SCOPED_TRACE(active ? "Active" : "Init");
    const auto timeouts = rig.fabric.stats().timeouts;
    const IncrementalDiscovery r = rediscover_changed(rig.batch, before, traps);
    if (row.outcome == Outcome::kOk) {
      ASSERT_TRUE(r.ok()) << r.full_sweep_because();
    }
    if (row.outcome == Outcome::kOkExpected) {
      EXPECT_TRUE(r.ok()) << r.full_sweep_because();
    }
    if (row.cables_lost) {
      EXPECT_EQ(r.cables_lost, *row.cables_lost);
    }
    if (row.nodes_lost) {
      EXPECT_EQ(r.nodes_lost, *row.nodes_lost);
    }
    if (row.nodes_kept) {
      EXPECT_EQ(r.fabric.topo->size(), *row.nodes_kept);
    }
    if (row.nothing_changed) {
      EXPECT_EQ(r.cables_lost + r.cables_gained + r.nodes_lost, 0u);
    }
    if (!row.no_timeout_because.empty()) {
      EXPECT_EQ(rig.fabric.stats().timeouts, timeouts) << row.no_timeout_because;
    }
    expect_correct(rig, r);  // ok: equal to a full discovery; a fallback: it names a GUID and a DR path
  }
}

INSTANTIATE_TEST_SUITE_P(
    IncrementalAttack, OneChange,
    ::testing::Values(
        // Several cables at once
        Change{
            .name = "SeveralCablesDownAtOnceIncludingTheSmLeafOneTrap",
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex leaf = sm_leaf(rig.topo);
                  const NodeIndex x = by_name(rig.topo, "sw-L1-5"), top = by_name(rig.topo, "sw-L2-12");
                  rig.fabric.unlink(leaf, 5);
                  rig.fabric.unlink(leaf, 7);
                  rig.fabric.unlink(x, switch_port(rig.topo, x, 5));
                  rig.fabric.unlink(top, 2);
                  rig.fabric.unlink(rig.topo.cas().back(), 1);  // a host far away
                  traps = {rig.guid(leaf)};
                },
            .cables_lost = 5,
        },
        Change{
            .name = "SeveralCablesDownNoTrapAtAll",
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>&) {
                  const NodeIndex leaf = sm_leaf(rig.topo);
                  rig.fabric.unlink(leaf, 6);
                  rig.fabric.unlink(by_name(rig.topo, "sw-L1-9"), 6);
                },
            .cables_lost = 2,
        },
        Change{
            .name = "EveryUplinkOfTheSmLeafDown",
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex leaf = sm_leaf(rig.topo);
                  for (PortNum p = 5; p <= 8; ++p) rig.fabric.unlink(leaf, p);
                  traps = {rig.guid(leaf)};
                },
            .nodes_kept = 5,  // the leaf and its 4 hosts
        },
        // One lost cable whose two ends are read in the same round: it is one cable.
        Change{
            .name = "LostCableReadFromBothEndsInOneRoundCountsOnce",
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex x = by_name(rig.topo, "sw-L1-9");
                  const NodeIndex far = rig.topo.node(x).ports[6].peer;
                  rig.fabric.unlink(x, 6);
                  traps = {rig.guid(x), rig.guid(far)};
                },
            .cables_lost = 1,
        },
        // Cables that move
        Change{
            .name = "HostMovesToAFreePortOfAnotherLeaf",
            .init_and_active = true,
            .before_first_discovery =
                [](SweepRig& rig) {
                  // A free host port on leaf sw-L0-9: its host-38 (port 3) is never cabled (a spare node).
                  const NodeIndex leaf9 = by_name(rig.topo, "sw-L0-9");
                  const NodeIndex spare = by_name(rig.topo, "host-38");
                  ASSERT_EQ(rig.topo.node(spare).ports[1].peer, leaf9);
                  ASSERT_EQ(rig.topo.node(spare).ports[1].peer_port, 3);
                  disconnect(rig.topo, spare, 1);
                  rig.fabric.set_port(leaf9, 3, 1, 0);
                  rig.fabric.set_port(spare, 1, 1, 0);
                },
            .first_discovery_clean = true,
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex leaf9 = by_name(rig.topo, "sw-L0-9");
                  const NodeIndex h = by_name(rig.topo, "host-21");
                  const NodeIndex old_leaf = rig.topo.node(h).ports[1].peer;
                  move_cable(rig, h, 1, leaf9, 3);
                  traps = {rig.guid(old_leaf), rig.guid(leaf9)};
                },
            .outcome = Outcome::kOkOrNamedFallback,
        },
        // Two hosts on different leaves exchange cables (a re-cabling, or two traps lost): every port
        // involved went Down and came back Init; NodeInfo through them now names the other host.
        Change{
            .name = "TwoHostsSwapCables",
            .init_and_active = true,
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex h1 = by_name(rig.topo, "host-21"), h2 = by_name(rig.topo, "host-42");
                  const NodeIndex l1 = rig.topo.node(h1).ports[1].peer, l2 = rig.topo.node(h2).ports[1].peer;
                  swap_far_ends(rig, h1, 1, h2, 1);
                  traps = {rig.guid(l1), rig.guid(l2)};
                },
            .outcome = Outcome::kOkOrNamedFallback,
        },
        // Two L1 -> L2 cables exchange their top ends. The top switches' directed paths cross the first
        // of them.
        Change{
            .name = "TwoInterSwitchCablesSwapEnds",
            .init_and_active = true,
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex a = by_name(rig.topo, "sw-L1-0"), c = by_name(rig.topo, "sw-L1-5");
                  const NodeIndex b = rig.topo.node(a).ports[5].peer, d = rig.topo.node(c).ports[6].peer;
                  ASSERT_NE(b, d);
                  swap_far_ends(rig, a, 5, c, 6);
                  traps = {rig.guid(a), rig.guid(b), rig.guid(c), rig.guid(d)};
                },
            .outcome = Outcome::kOkOrNamedFallback,
        },
        // A host's HCA is replaced during one sweep interval (cable out, new card in, same port): the
        // port went Down and came back Init with another NodeGUID behind it.
        Change{
            .name = "HostReplacedWithinOneSweep",
            .init_and_active = true,
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex h = by_name(rig.topo, "host-21");
                  const NodeIndex leaf = rig.topo.node(h).ports[1].peer;
                  rig.fabric.unlink(h, 1);
                  rig.fabric.override_guid(h, 0x00aa00000000beefULL);
                  rig.fabric.relink(h, 1);
                  traps = {rig.guid(leaf)};
                },
            .outcome = Outcome::kOkOrNamedFallback,
        },
        // Nodes that disappear and come back
        Change{
            .name = "HostWhoseOnlyCableFlapsWithinOneSweep",
            .init_and_active = true,
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex h = by_name(rig.topo, "host-50");
                  const NodeIndex leaf = rig.topo.node(h).ports[1].peer;
                  rig.fabric.unlink(h, 1);
                  rig.fabric.relink(h, 1);
                  traps = {rig.guid(leaf)};
                },
        },
        // Odd trap issuers
        Change{
            .name = "TrapFromACaNamesItsSwitch",
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex h = by_name(rig.topo, "host-50");
                  const NodeIndex leaf = rig.topo.node(h).ports[1].peer;
                  rig.fabric.unlink(leaf, 6);
                  traps = {rig.guid(h)};
                },
        },
        Change{
            .name = "TrapOnlyFromATopSwitchThatWasCutOff",
            .change =
                [](SweepRig& rig, const ObservedFabric&, std::vector<Guid>& traps) {
                  const NodeIndex top = by_name(rig.topo, "sw-L2-9");
                  for (PortNum p = 1; p <= 4; ++p) rig.fabric.unlink(top, p);
                  traps = {rig.guid(top)};
                },
            .nodes_lost = 1,
            .no_timeout_because = "SMPs sent over a cable known to be down",
        },
        Change{
            .name = "StaleTrapNothingChanged",
            .change = [](SweepRig& rig, const ObservedFabric&,
                         std::vector<Guid>& traps) { traps = {rig.guid(by_name(rig.topo, "sw-L2-3"))}; },
            .nothing_changed = true,
        },
        // The near end's trap is lost (or the near end is a switch whose trap never comes); only a switch
        // two hops beyond the lost cable reports. paths_still_up() reads every hop of its path at once:
        // the hops behind the lost cable cannot answer.
        Change{
            .name = "TrapOnlyFromBeyondALostCable",
            .change =
                [](SweepRig& rig, const ObservedFabric& before, std::vector<Guid>& traps) {
                  const NodeIndex leaf = sm_leaf(rig.topo);
                  const NodeIndex top = by_name(rig.topo, "sw-L2-0");  // DR path 0,1,5,5: over the SM leaf's port 5
                  ASSERT_EQ(format_dr_path(before.topo->node(*before.topo->find(rig.guid(top))).dr_path), "0,1,5,5");
                  rig.fabric.unlink(leaf, 5);
                  rig.fabric.unlink(top, 4);  // the trap's own change, elsewhere
                  traps = {rig.guid(top)};
                },
            .outcome = Outcome::kOkExpected,
            .no_timeout_because = "SMPs sent beyond a cable that is down",
        }),
    test::RowName());

// ---------------------------------------------------------------------------------------------------
// A node that leaves and comes back a sweep later, one row each

// The far end (peer, peer port) of every cable of `n`: unlinking those takes `n` off the fabric.
std::vector<std::pair<NodeIndex, PortNum>> far_ends(const Topology& t, NodeIndex n) {
  std::vector<std::pair<NodeIndex, PortNum>> out;
  for (const Port& p : t.node(n).ports)
    if (p.connected()) out.emplace_back(p.peer, p.peer_port);
  return out;
}

struct AwayAndBack {
  std::string name{};
  /// Take the node away after the first discovery, then bring it back after the second; each sets the
  /// GUIDs that send traps.
  std::function<void(SweepRig&, std::vector<Guid>& traps)> away{};
  std::function<void(SweepRig&, std::vector<Guid>& traps)> back{};
  std::optional<unsigned> nodes_lost{};  ///< by the sweep after it went
  std::string fallback_names{};          ///< not empty: a fallback when it is back must name this node
};

class LeavesAndComesBack : public ::testing::TestWithParam<AwayAndBack> {};

TEST_P(LeavesAndComesBack, BothSweepsMatchAFullDiscoveryOrFallBackByName) {
  const AwayAndBack& row = GetParam();
  auto owned = rig_of(make_kary_ntree(4, 3));
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  std::vector<Guid> traps;
  ASSERT_NO_FATAL_FAILURE(row.away(rig, traps));
  const IncrementalDiscovery gone = rediscover_changed(rig.batch, before, traps);
  ASSERT_TRUE(gone.ok()) << gone.full_sweep_because();
  if (row.nodes_lost) {
    EXPECT_EQ(gone.nodes_lost, *row.nodes_lost);
  }
  EXPECT_EQ(compare_with_full(rig, gone.fabric), "");
  clear_psc(rig);

  traps.clear();
  ASSERT_NO_FATAL_FAILURE(row.back(rig, traps));
  const IncrementalDiscovery back = rediscover_changed(rig.batch, gone.fabric, traps);
  expect_correct(rig, back);
  if (!back.ok() && !row.fallback_names.empty()) {
    EXPECT_NE(back.full_sweep_because().find(format_guid(rig.guid(by_name(rig.topo, row.fallback_names)))),
              std::string::npos);
  }
  std::cout << "[ info ] " << row.name << ", back: " << (back.ok() ? "ok" : back.full_sweep_because()) << "\n";
}

INSTANTIATE_TEST_SUITE_P(IncrementalAttack, LeavesAndComesBack,
                         ::testing::Values(AwayAndBack{
                                               .name = "TopSwitchDisappearsAndComesBack",
                                               .away =
                                                   [](SweepRig& rig, std::vector<Guid>& traps) {
                                                     const auto down = far_ends(rig.topo, by_name(rig.topo, "sw-L2-0"));
                                                     for (auto [n, p] : down) rig.fabric.unlink(n, p);
                                                     traps = {rig.guid(down.front().first)};
                                                   },
                                               .back =
                                                   [](SweepRig& rig, std::vector<Guid>& traps) {
                                                     const auto down = far_ends(rig.topo, by_name(rig.topo, "sw-L2-0"));
                                                     for (auto [n, p] : down) rig.fabric.relink(n, p);
                                                     traps = {rig.guid(down.front().first)};
                                                   },
                                               .nodes_lost = 1,
                                               .fallback_names = "sw-L2-0",
                                           },
                                           AwayAndBack{
                                               .name = "LeafWithItsHostsDisappearsAndComesBack",
                                               .away =
                                                   [](SweepRig& rig, std::vector<Guid>& traps) {
                                                     const NodeIndex leaf = by_name(rig.topo, "sw-L0-6");
                                                     for (PortNum p = 5; p <= 8; ++p) rig.fabric.unlink(leaf, p);
                                                     // Trap from the cut-off leaf itself (its LID is still known); the
                                                     // far ends say nothing.
                                                     traps = {rig.guid(leaf)};
                                                   },
                                               .back =
                                                   [](SweepRig& rig, std::vector<Guid>&) {
                                                     const NodeIndex leaf = by_name(rig.topo, "sw-L0-6");
                                                     for (PortNum p = 5; p <= 8; ++p) rig.fabric.relink(leaf, p);
                                                   },
                                               .nodes_lost = 5,
                                           },
                                           AwayAndBack{
                                               .name = "HostWhoseOnlyCableFlapsTwoSweeps",
                                               .away =
                                                   [](SweepRig& rig, std::vector<Guid>& traps) {
                                                     const NodeIndex h = by_name(rig.topo, "host-50");
                                                     rig.fabric.unlink(h, 1);
                                                     traps = {rig.guid(rig.topo.node(h).ports[1].peer)};
                                                   },
                                               .back =
                                                   [](SweepRig& rig, std::vector<Guid>& traps) {
                                                     const NodeIndex h = by_name(rig.topo, "host-50");
                                                     rig.fabric.relink(h, 1);
                                                     traps = {rig.guid(rig.topo.node(h).ports[1].peer)};
                                                   },
                                           }),
                         test::RowName());

// ---------------------------------------------------------------------------------------------------
// Cables that move

// sw-L1-0 (the SM pod's first L1 switch: every top switch's directed path crosses it) port 5 goes to a
// top switch T; the cable is moved to a free port (5) of T itself or of another top switch.
TEST(IncrementalAttack, CableMovesToAFreePort) {
  for (bool active : {false, true}) {
    for (bool other_switch : {false, true}) {
      for (int traps = 0; traps < 5; ++traps) {
        auto owned = rig_of(make_kary_ntree(4, 3));
        SweepRig& rig = *owned;
        if (active) rig.activate_cabled_ports();  // as after a configuring sweep
        const NodeIndex x = by_name(rig.topo, "sw-L1-0");
        const NodeIndex t = rig.topo.node(x).ports[5].peer;
        NodeIndex c = t;
        if (other_switch) {
          for (NodeIndex s : rig.topo.switches())
            if (s != t && rig.topo.node(s).description.starts_with("sw-L2-")) c = s;
        }
        const ObservedFabric before = discover_fabric(rig.batch);
        ASSERT_TRUE(before.problems.empty());
        move_cable(rig, x, 5, c, 5);
        std::vector<Guid> changed;
        if (traps == 0 || traps == 3) changed.push_back(rig.guid(x));
        if (traps == 1 || traps == 3) changed.push_back(rig.guid(t));
        if (traps == 2 || traps == 3) changed.push_back(rig.guid(c));
        SCOPED_TRACE(std::string(active ? "Active" : "Init") +
                     (other_switch ? ", to another switch" : ", same switch") + ", traps " + std::to_string(traps));
        const IncrementalDiscovery r = rediscover_changed(rig.batch, before, changed);
        expect_correct(rig, r);
        std::cout << "[ info ] move " << (active ? "Active" : "Init") << (other_switch ? " other" : " same")
                  << " traps " << traps << ": " << (r.ok() ? "ok" : r.full_sweep_because()) << "\n";
      }
    }
  }
}

// A host with two ports, one cable to each of two switches: one of its cables goes down and comes back
// (its directed path and the per-port path of the lost port must follow).
Topology dual_homed() {
  Topology t;
  auto add = [&](Guid g, NodeType type, const std::string& name, PortNum ports) {
    Node n;
    n.guid = n.system_image_guid = g;
    n.type = type;
    n.description = name;
    n.num_ports = ports;
    n.lft_cap = type == NodeType::kSwitch ? 30720 : 0;
    n.ports.resize(ports + 1u);
    for (PortNum p = 0; p <= ports; ++p) {
      n.ports[p].num = p;
      n.ports[p].guid = type == NodeType::kSwitch ? g : g + p;
    }
    return t.add_node(std::move(n)).value();
  };
  const NodeIndex sm = add(0x100, NodeType::kCa, "sm-host", 1);
  const NodeIndex dual = add(0x200, NodeType::kCa, "dual-host", 2);
  const NodeIndex other = add(0x300, NodeType::kCa, "host-2", 1);
  const NodeIndex s0 = add(0x1000, NodeType::kSwitch, "sw-0", 8);
  const NodeIndex s1 = add(0x2000, NodeType::kSwitch, "sw-1", 8);
  EXPECT_TRUE(t.connect(s0, 1, s1, 1).ok());
  EXPECT_TRUE(t.connect(sm, 1, s0, 2).ok());
  EXPECT_TRUE(t.connect(dual, 1, s0, 3).ok());
  EXPECT_TRUE(t.connect(dual, 2, s1, 3).ok());
  EXPECT_TRUE(t.connect(other, 1, s1, 4).ok());
  t.sm_node = sm;
  t.sm_port = 1;
  return t;
}

TEST(IncrementalAttack, DualHomedHostLosesAndRegainsOneCable) {
  for (PortNum port : {PortNum{1}, PortNum{2}}) {
    auto owned = std::make_unique<SweepRig>(dual_homed(), 1);
    SweepRig& rig = *owned;
    SCOPED_TRACE("dual-host port " + std::to_string(port));
    const ObservedFabric before = discover_fabric(rig.batch);
    ASSERT_TRUE(before.problems.empty()) << before.problems.front().to_string();
    const NodeIndex dual = *rig.topo.find(0x200);
    const NodeIndex sw = rig.topo.node(dual).ports[port].peer;
    rig.fabric.unlink(dual, port);
    const IncrementalDiscovery lost = rediscover_changed(rig.batch, before, {rig.guid(sw)});
    ASSERT_TRUE(lost.ok()) << lost.full_sweep_because();
    EXPECT_EQ(compare_with_full(rig, lost.fabric), "");
    clear_psc(rig);
    rig.fabric.relink(dual, port);
    const IncrementalDiscovery back = rediscover_changed(rig.batch, lost.fabric, {rig.guid(sw)});
    ASSERT_TRUE(back.ok()) << back.full_sweep_because();
    EXPECT_EQ(compare_with_full(rig, back.fabric), "");
  }
}

// The SM runs on a switch (its management port 0): directed paths start at that switch.
TEST(IncrementalAttack, SmOnASwitch) {
  auto t = make_kary_ntree(4, 3);
  ASSERT_TRUE(t.ok());
  t->sm_node = by_name(*t, "sw-L1-6");
  t->sm_port = 0;
  auto owned = std::make_unique<SweepRig>(std::move(t.value()), 1);
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  ASSERT_TRUE(before.problems.empty()) << before.problems.front().to_string();
  const NodeIndex sm = rig.topo.sm_node;
  rig.fabric.unlink(sm, 5);
  rig.fabric.unlink(sm, 1);
  const IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(sm)});
  expect_correct(rig, r);
  clear_psc(rig);
  rig.fabric.relink(sm, 5);
  const IncrementalDiscovery back = rediscover_changed(rig.batch, r.ok() ? r.fabric : before, {rig.guid(sm)});
  expect_correct(rig, back);
}

}  // namespace
}  // namespace smd::incremental_attack_change_test
