// Attacks on the incremental heavy sweep (incremental_discovery.h, SweepScope::kChanged): bad or unusual
// changes between two sweeps. The correct outcome of every case is either ok with the fabric a full
// discovery of the same fake fabric finds (same nodes, same cables by GUID and port, every directed path
// reaching its node by NodeInfo), or a fallback (ok == false) whose reason names a node GUID and a DR
// path. Never a crash, a hang, a wrong topology or a path that leads somewhere else.
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

#include "fabric_witness.h"
#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/discovered_subset.h"
#include "smd/sweep/incremental_discovery.h"
#include "smd/sweep/sweep_runner.h"
#include "sweep_rig.h"

namespace smd {
namespace {

// ---------------------------------------------------------------------------------------------------
// Helpers

using test::SweepRig;

// A rig on the heap (it holds references into itself), each SMP tried once more after a loss. Tests
// re-cable rig.topo (move_cable) between sweeps: the fake fabric answers for it as it is then.
std::unique_ptr<SweepRig> rig_of(Result<Topology> t, unsigned retries = 1) {
  EXPECT_TRUE(t.ok());
  return std::make_unique<SweepRig>(std::move(t.value()), retries);
}

using test::Cable;
using test::cables;
using test::guids;

std::string str(const Cable& c) {
  return format_guid(std::get<0>(c)) + "[" + std::to_string(std::get<1>(c)) + "]-" + format_guid(std::get<2>(c)) + "[" +
         std::to_string(std::get<3>(c)) + "]";
}

// Where a directed path leads in the model (kNoNode: off the modelled cables).
NodeIndex model_walk(const Topology& t, const std::vector<std::uint8_t>& hops) {
  NodeIndex n = t.sm_node;
  for (std::size_t i = 0; i < hops.size(); ++i) {
    const Node& node = t.node(n);
    if (i > 0 && !node.is_switch()) return kNoNode;
    if (hops[i] == 0 || hops[i] > node.num_ports || !node.ports[hops[i]].connected()) return kNoNode;
    n = node.ports[hops[i]].peer;
  }
  return n;
}

// Everything wrong with `got` compared to a full discovery of the fake fabric now ("" when nothing).
// Loss must be off.
std::string compare_with_full(SweepRig& rig, const ObservedFabric& got) {
  std::ostringstream out;
  ObservedFabric full = discover_fabric(rig.batch);
  for (const auto& p : full.problems) out << "(full discovery problem: " << p.to_string() << ")\n";
  const auto g1 = guids(*got.topo), g2 = guids(*full.topo);
  for (Guid g : g1)
    if (!g2.contains(g)) out << "node " << format_guid(g) << " kept but a full discovery does not find it\n";
  for (Guid g : g2)
    if (!g1.contains(g)) out << "node " << format_guid(g) << " missing (a full discovery finds it)\n";
  const auto c1 = cables(*got.topo), c2 = cables(*full.topo);
  for (const Cable& c : c1)
    if (!c2.contains(c)) out << "cable " << str(c) << " kept but a full discovery does not find it\n";
  for (const Cable& c : c2)
    if (!c1.contains(c)) out << "cable " << str(c) << " missing (a full discovery finds it)\n";
  for (const auto& p : got.problems) out << "problem in result: " << p.to_string() << "\n";
  const Topology& t = *got.topo;
  if (got.nodes.size() != t.size()) out << "per-node records misaligned\n";
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (model_walk(t, node.dr_path) != n)
      out << describe_node(node) << ": dr_path " << format_dr_path(node.dr_path)
          << " does not lead to it in the model\n";
  }
  test::probe_kept_paths(rig.batch, got, [&](const test::KeptPath& k, const mad::SmpReply& r) {
    const Node& node = t.node(k.node);
    if (r.outcome != mad::SmpOutcome::kOk) {
      out << describe_node(node) << ": NodeInfo via " << k.path.to_string() << " did not answer\n";
      return;
    }
    const auto ni = mad::NodeInfo::decode(r.data);
    if (ni.node_guid != node.guid)
      out << describe_node(node) << ": path " << k.path.to_string() << " leads to " << format_guid(ni.node_guid)
          << "\n";
    else if (k.port != 0 && ni.local_port_num != k.port)
      out << describe_node(node) << ": port path " << k.path.to_string() << " arrives at port "
          << int(ni.local_port_num) << ", not " << int(k.port) << "\n";
  });
  return out.str();
}

// A fallback must say where: a node GUID and a directed path.
void expect_named_fallback(const IncrementalDiscovery& r) {
  EXPECT_FALSE(r.full_sweep_because.empty());
  EXPECT_NE(r.full_sweep_because.find("0x"), std::string::npos) << r.full_sweep_because;
  EXPECT_NE(r.full_sweep_because.find("DR path"), std::string::npos) << r.full_sweep_because;
}

// Either ok and equal to a full discovery, or a fallback naming GUID and path.
void expect_correct(SweepRig& rig, const IncrementalDiscovery& r) {
  if (r.ok) {
    EXPECT_EQ(compare_with_full(rig, r.fabric), "");
  } else {
    expect_named_fallback(r);
  }
}

// Clear SwitchInfo:PortStateChange everywhere, as the SM does at the end of each sweep.
void clear_psc(SweepRig& rig) {
  ObservedFabric full = discover_fabric(rig.batch);
  for (NodeIndex s : full.topo->switches()) {
    auto si = *full.nodes[s].switch_info;
    si.port_state_change = true;
    mad::SmpRequest req;
    req.path = mad::DrPath(full.topo->node(s).dr_path);
    req.method = mad::Method::kSet;
    req.attr_id = mad::attr::kSwitchInfo;
    si.encode(req.data);
    rig.batch.submit(req, [](const mad::SmpReply&) {});
  }
  rig.batch.wait();
}

void disconnect(Topology& t, NodeIndex n, PortNum p) {
  Port& x = t.mutable_node(n).ports[p];
  if (!x.connected()) return;
  Port& y = t.mutable_node(x.peer).ports[x.peer_port];
  y.peer = kNoNode;
  y.peer_port = 0;
  x.peer = kNoNode;
  x.peer_port = 0;
}

// Pull the cable at a.pa out of its far end and plug it into c.pc (free): both old ends go Down, the new
// link trains to Init, PortStateChange on every switch involved (as a real re-cabling would).
void move_cable(SweepRig& rig, NodeIndex a, PortNum pa, NodeIndex c, PortNum pc) {
  rig.fabric.unlink(a, pa);
  disconnect(rig.topo, a, pa);
  ASSERT_TRUE(rig.topo.connect(a, pa, c, pc).ok());
  rig.fabric.relink(a, pa);
}

// a.pa <-> b.pb and c.pc <-> d.pd become a.pa <-> d.pd and c.pc <-> b.pb.
void swap_far_ends(SweepRig& rig, NodeIndex a, PortNum pa, NodeIndex c, PortNum pc) {
  const NodeIndex b = rig.topo.node(a).ports[pa].peer, d = rig.topo.node(c).ports[pc].peer;
  const PortNum pb = rig.topo.node(a).ports[pa].peer_port, pd = rig.topo.node(c).ports[pc].peer_port;
  rig.fabric.unlink(a, pa);
  rig.fabric.unlink(c, pc);
  disconnect(rig.topo, a, pa);
  disconnect(rig.topo, c, pc);
  ASSERT_TRUE(rig.topo.connect(a, pa, d, pd).ok());
  ASSERT_TRUE(rig.topo.connect(c, pc, b, pb).ok());
  rig.fabric.relink(a, pa);
  rig.fabric.relink(c, pc);
}

NodeIndex sm_leaf(const Topology& t) { return t.node(t.sm_node).ports[t.sm_port].peer; }

NodeIndex by_name(const Topology& t, const std::string& name) {
  for (NodeIndex n = 0; n < t.size(); ++n)
    if (t.node(n).description == name) return n;
  ADD_FAILURE() << "no node " << name;
  return kNoNode;
}

// First port of switch `s` cabled to another switch (from port `from` on).
PortNum switch_port(const Topology& t, NodeIndex s, PortNum from = 1) {
  for (PortNum p = from; p <= t.node(s).num_ports; ++p) {
    const Port& port = t.node(s).ports[p];
    if (port.connected() && t.node(port.peer).is_switch()) return p;
  }
  return 0;
}

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
      ASSERT_TRUE(r.ok) << r.full_sweep_because;
    }
    if (row.outcome == Outcome::kOkExpected) {
      EXPECT_TRUE(r.ok) << r.full_sweep_because;
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
  ASSERT_TRUE(gone.ok) << gone.full_sweep_because;
  if (row.nodes_lost) {
    EXPECT_EQ(gone.nodes_lost, *row.nodes_lost);
  }
  EXPECT_EQ(compare_with_full(rig, gone.fabric), "");
  clear_psc(rig);

  traps.clear();
  ASSERT_NO_FATAL_FAILURE(row.back(rig, traps));
  const IncrementalDiscovery back = rediscover_changed(rig.batch, gone.fabric, traps);
  expect_correct(rig, back);
  if (!back.ok && !row.fallback_names.empty()) {
    EXPECT_NE(back.full_sweep_because.find(format_guid(rig.guid(by_name(rig.topo, row.fallback_names)))),
              std::string::npos);
  }
  std::cout << "[ info ] " << row.name << ", back: " << (back.ok ? "ok" : back.full_sweep_because) << "\n";
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
                  << " traps " << traps << ": " << (r.ok ? "ok" : r.full_sweep_because) << "\n";
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
    ASSERT_TRUE(lost.ok) << lost.full_sweep_because;
    EXPECT_EQ(compare_with_full(rig, lost.fabric), "");
    clear_psc(rig);
    rig.fabric.relink(dual, port);
    const IncrementalDiscovery back = rediscover_changed(rig.batch, lost.fabric, {rig.guid(sw)});
    ASSERT_TRUE(back.ok) << back.full_sweep_because;
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
  const IncrementalDiscovery back = rediscover_changed(rig.batch, r.ok ? r.fabric : before, {rig.guid(sm)});
  expect_correct(rig, back);
}

// ---------------------------------------------------------------------------------------------------
// Loss during the incremental sweep

TEST(IncrementalAttack, LossDuringTheIncrementalSweep) {
  unsigned ok = 0, fallback = 0;
  std::map<std::string, unsigned> why;
  for (unsigned seed = 1; seed <= 60; ++seed) {
    auto owned = rig_of(make_kary_ntree(4, 3));
    SweepRig& rig = *owned;
    const ObservedFabric before = discover_fabric(rig.batch);
    const NodeIndex leaf = sm_leaf(rig.topo);
    rig.fabric.unlink(leaf, 5);
    rig.fabric.unlink(by_name(rig.topo, "sw-L1-9"), 6);
    if (seed % 2) {
      rig.fabric.set_loss(0.15, seed);
    } else {
      rig.fabric.set_hop_loss(0.03, seed);
    }
    const IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
    rig.fabric.set_loss(0, 1);
    rig.fabric.set_hop_loss(0, 1);
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_correct(rig, r);
    if (r.ok) {
      ++ok;
    } else {
      ++fallback;
      ++why[r.full_sweep_because.substr(r.full_sweep_because.rfind(':') + 1)];
    }
  }
  std::cout << "[ info ] loss: " << ok << " ok, " << fallback << " fallbacks\n";
  for (const auto& [w, n] : why) std::cout << "[ info ]   " << n << " x" << w << "\n";
}

// ---------------------------------------------------------------------------------------------------
// Duplicate GUIDs on a relinked cable

TEST(IncrementalAttack, RelinkedCableLeadsToAnImpersonator) {
  for (int mode = 0; mode < 2; ++mode) {
    auto owned = rig_of(make_kary_ntree(4, 3));
    SweepRig& rig = *owned;
    const NodeIndex x = by_name(rig.topo, "sw-L1-6");
    const NodeIndex t = rig.topo.node(x).ports[5].peer;
    const NodeIndex other = by_name(rig.topo, t == by_name(rig.topo, "sw-L2-1") ? "sw-L2-2" : "sw-L2-1");
    rig.fabric.unlink(x, 5);
    const ObservedFabric before = discover_fabric(rig.batch);
    if (mode == 0) {
      rig.fabric.impersonate(t, other);  // a perfect clone of a switch whose same port is cabled
    } else {
      rig.fabric.override_guid(t, rig.guid(other));  // same NodeGUID, own PortGUID
    }
    rig.fabric.relink(x, 5);
    SCOPED_TRACE(mode == 0 ? "impersonate" : "override_guid");
    const IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(x)});
    EXPECT_FALSE(r.ok);
    expect_named_fallback(r);
  }
}

// A switch whose every cable was down in the last sweep comes back cloning a known switch, on a port
// that switch has free: NodeInfo checks pass. What does a full discovery make of it?
TEST(IncrementalAttack, CloneOnAPortTheOriginalHasFree) {
  auto owned = rig_of(make_kary_ntree(4, 3));
  SweepRig& rig = *owned;
  const NodeIndex x = by_name(rig.topo, "sw-L1-6");
  const NodeIndex t = rig.topo.node(x).ports[5].peer;
  const NodeIndex other = by_name(rig.topo, t == by_name(rig.topo, "sw-L2-1") ? "sw-L2-2" : "sw-L2-1");
  const ObservedFabric before = discover_fabric(rig.batch);
  // The cable x.5 -> t.p moves to t.6 (free) while t impersonates `other`, whose port 6 is free too.
  rig.fabric.impersonate(t, other);
  move_cable(rig, x, 5, t, 6);
  const IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(x)});
  std::cout << "[ info ] clone: " << (r.ok ? "ok" : r.full_sweep_because) << "\n";
  if (r.ok) {
    const std::string diff = compare_with_full(rig, r.fabric);
    std::cout << "[ info ] clone vs full discovery:\n" << diff;
  }
}

// A loopback cable appears on two free ports of a top switch (someone plugs both ends of a spare cable
// into the same switch). Then an ordinary cable goes down.
TEST(IncrementalAttack, LoopbackCableAppearsThenAnOrdinaryChange) {
  auto owned = rig_of(make_kary_ntree(4, 3));
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const NodeIndex top = by_name(rig.topo, "sw-L2-5");
  ASSERT_TRUE(rig.topo.connect(top, 5, top, 6).ok());
  rig.fabric.relink(top, 5);
  const IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(top)});
  expect_correct(rig, r);
  std::cout << "[ info ] loopback: " << (r.ok ? "ok" : r.full_sweep_because) << ", gaps left "
            << (r.ok ? discovery_gaps(r.fabric) : 0) << ", gaps in a full discovery "
            << discovery_gaps(discover_fabric(rig.batch)) << "\n";
  ASSERT_TRUE(r.ok);
  clear_psc(rig);
  const NodeIndex x = by_name(rig.topo, "sw-L1-9");
  rig.fabric.unlink(x, 6);
  const IncrementalDiscovery next = rediscover_changed(rig.batch, r.fabric, {rig.guid(x)});
  std::cout << "[ info ] next change: " << (next.ok ? "ok" : next.full_sweep_because) << "\n";
  expect_correct(rig, next);
}

// ---------------------------------------------------------------------------------------------------
// A previous fabric whose directed paths cross a cable the model no longer has. discover_fabric() cannot
// produce one without leaving a NodeInfo gap (rediscover_changed() then refuses), so it is made here by
// hand the way vet_discovered() would: keep_subset() cuts the cable, dr_paths are left as they were, both
// ends read Down. What does paths_still_up() do with such a path? (read_ready_suspects() guards the same
// walk against kNoNode; paths_still_up() does not.)

TEST(IncrementalAttack, LatentPreviousWhosePathsCrossACutCable) {
  auto owned = rig_of(make_kary_ntree(4, 3));
  SweepRig& rig = *owned;
  ObservedFabric before = discover_fabric(rig.batch);
  const NodeIndex leaf = *before.topo->find(rig.guid(sm_leaf(rig.topo)));
  const Port cable = before.topo->node(leaf).ports[5];
  std::vector<bool> keep(before.topo->size(), true);
  std::vector<std::vector<bool>> cut(before.topo->size());
  for (NodeIndex n = 0; n < before.topo->size(); ++n) cut[n].assign(before.topo->node(n).ports.size(), false);
  cut[leaf][5] = cut[cable.peer][cable.peer_port] = true;
  for (auto [n, p] : {std::pair{leaf, PortNum{5}}, std::pair{cable.peer, cable.peer_port}}) {
    before.nodes[n].ports[p].port_info->port_state = 1;
  }
  keep_subset(before, keep, cut);
  ASSERT_EQ(discovery_gaps(before), 0u);
  rig.fabric.unlink(sm_leaf(rig.topo), 5);
  const NodeIndex top = by_name(rig.topo, "sw-L2-0");
  rig.fabric.unlink(top, 3);
  EXPECT_EXIT(
      {
        const IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(top)});
        std::fprintf(stderr, "returned ok=%d %s\n", r.ok, r.full_sweep_because.c_str());
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "returned");
}

// ---------------------------------------------------------------------------------------------------
// Many rounds of flaps on rings and tori, each result compared with a fresh full discovery

struct RoundStats {
  unsigned ok = 0, fallback = 0;
  std::map<std::string, unsigned> reasons;
};

RoundStats flap_rounds(SweepRig& rig, unsigned rounds, unsigned seed, bool hosts_too, bool quick_flaps) {
  RoundStats st;
  std::mt19937 rng(seed);
  std::vector<std::pair<NodeIndex, PortNum>> all;
  for (NodeIndex n = 0; n < rig.topo.size(); ++n) {
    const Node& node = rig.topo.node(n);
    for (const Port& p : node.ports) {
      if (!p.connected() || p.peer < n) continue;
      if (!hosts_too && (!node.is_switch() || !rig.topo.node(p.peer).is_switch())) continue;
      if (n == rig.topo.sm_node || p.peer == rig.topo.sm_node) continue;
      all.emplace_back(n, p.num);
    }
  }
  std::vector<bool> down(all.size(), false);
  ObservedFabric prev = discover_fabric(rig.batch);
  for (unsigned round = 0; round < rounds; ++round) {
    std::vector<Guid> traps;
    const unsigned changes = 1 + rng() % 3;
    for (unsigned i = 0; i < changes; ++i) {
      const std::size_t c = rng() % all.size();
      auto [n, p] = all[c];
      if (quick_flaps && !down[c] && rng() % 4 == 0) {
        rig.fabric.unlink(n, p);
        rig.fabric.relink(n, p);
      } else {
        down[c] ? rig.fabric.relink(n, p) : rig.fabric.unlink(n, p);
        down[c] = !down[c];
      }
      const NodeIndex end = rng() % 2 ? n : rig.topo.node(n).ports[p].peer;
      if (rng() % 2 && prev.topo->find(rig.guid(end))) traps.push_back(rig.guid(end));
    }
    const IncrementalDiscovery r = rediscover_changed(rig.batch, prev, traps);
    SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round));
    if (r.ok) {
      ++st.ok;
      const std::string diff = compare_with_full(rig, r.fabric);
      EXPECT_EQ(diff, "");
      prev = diff.empty() ? r.fabric : discover_fabric(rig.batch);
    } else {
      ++st.fallback;
      expect_named_fallback(r);
      if (r.full_sweep_because.find("timeout") != std::string::npos)
        std::cout << "[ info ] no loss, yet: " << r.full_sweep_because << "\n";
      std::string w = r.full_sweep_because;
      const auto at = w.find(" at DR path ");
      if (at != std::string::npos) w = w.substr(w.find(':', at) == std::string::npos ? at : w.find(':', at));
      if (w.find("came up to node") != std::string::npos) w = "came up to node ... " + w.substr(w.rfind(','));
      ++st.reasons[w];
      prev = discover_fabric(rig.batch);
    }
    clear_psc(rig);
  }
  return st;
}

void print(const std::string& what, const RoundStats& st) {
  std::cout << "[ info ] " << what << ": " << st.ok << " ok, " << st.fallback << " fallbacks\n";
  for (const auto& [w, n] : st.reasons) std::cout << "[ info ]   " << n << " x " << w << "\n";
}

// One row a fabric: its flap rounds, each seed on a fresh rig.
struct Flaps {
  std::string name{};
  std::string fabric_name{};  ///< what the info lines call it
  std::function<Result<Topology>(unsigned seed)> fabric{};
  unsigned seeds = 0;
  bool hosts_too = false;    ///< host cables flap too, not only switch-to-switch ones
  bool quick_flaps = false;  ///< some cables go down and come back within one round
};

class ManyRoundsOfFlaps : public ::testing::TestWithParam<Flaps> {};

TEST_P(ManyRoundsOfFlaps, EachRoundMatchesAFullDiscoveryOrFallsBackByName) {
  const Flaps& row = GetParam();
  for (unsigned seed = 1; seed <= row.seeds; ++seed) {
    auto owned = rig_of(row.fabric(seed));
    print(row.fabric_name + " seed " + std::to_string(seed),
          flap_rounds(*owned, 40, seed, row.hosts_too, row.quick_flaps));
  }
}

INSTANTIATE_TEST_SUITE_P(IncrementalAttack, ManyRoundsOfFlaps,
                         ::testing::Values(
                             Flaps{
                                 .name = "RingManyRoundsOfFlaps",
                                 .fabric_name = "ring 12",
                                 .fabric = [](unsigned) { return make_torus({12}, 1); },
                                 .seeds = 4,
                             },
                             Flaps{
                                 .name = "TorusManyRoundsOfFlapsHostsAndQuickFlaps",
                                 .fabric_name = "torus 4x4",
                                 .fabric =
                                     [](unsigned) {
                                       return make_torus({4, 4}, 1);
                                     },
                                 .seeds = 4,
                                 .hosts_too = true,
                                 .quick_flaps = true,
                             },
                             Flaps{
                                 .name = "Torus3dManyRoundsOfFlaps",
                                 .fabric_name = "torus 3x3x3",
                                 .fabric =
                                     [](unsigned) {
                                       return make_torus({3, 3, 3}, 1);
                                     },
                                 .seeds = 2,
                                 .quick_flaps = true,
                             },
                             Flaps{
                                 .name = "RandomFabricManyRoundsOfFlaps",
                                 .fabric_name = "random",
                                 .fabric = [](unsigned seed) { return make_random(20, 4, 1, seed); },
                                 .seeds = 3,
                                 .quick_flaps = true,
                             }),
                         test::RowName());

// A ring longer than 63 hops end to end: cutting the SM's own ring cable would give directed routes past
// 63 hops. A full discovery cannot reach the far half either; the incremental one must not pretend it does.
TEST(IncrementalAttack, LongRingCutBeyond63Hops) {
  auto owned = rig_of(make_torus({80}, 1));
  SweepRig& rig = *owned;
  const ObservedFabric before = discover_fabric(rig.batch);
  const NodeIndex leaf = sm_leaf(rig.topo);
  rig.fabric.unlink(leaf, 2);  // the "+" cable of the SM's switch
  const IncrementalDiscovery r = rediscover_changed(rig.batch, before, {rig.guid(leaf)});
  std::cout << "[ info ] long ring: " << (r.ok ? "ok" : r.full_sweep_because) << "\n";
  if (r.ok) {
    EXPECT_EQ(compare_with_full(rig, r.fabric), "");
  }
}

// ---------------------------------------------------------------------------------------------------
// The whole sweep (SweepRunner, SweepScope::kChanged): the fabric it programs

// What the runner believes against what the fake fabric holds: same nodes and cables as a full discovery,
// and every CA port's LID in the runner's LidMap is the LID that node (by GUID) holds.
std::string runner_vs_fabric(SweepRig& rig, const SweepRunner& runner) {
  std::ostringstream out;
  const ObservedFabric full = discover_fabric(rig.batch);
  const Topology& t = *runner.topology();
  if (cables(t) != cables(*full.topo)) {
    for (const Cable& c : cables(t))
      if (!cables(*full.topo).contains(c)) out << "runner's cable " << str(c) << " is not in the fabric\n";
    for (const Cable& c : cables(*full.topo))
      if (!cables(t).contains(c)) out << "fabric's cable " << str(c) << " is not in the runner's topology\n";
  }
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (node.is_switch()) continue;
    const auto real = rig.topo.find(node.guid);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected() || !real) continue;
      const Lid want = runner.lids().base_lid(n, p);
      const Lid has = rig.fabric.lid(*real, p);
      if (want != has)
        out << describe_node(node) << " port " << int(p) << ": runner gave LID " << want << ", the node holds LID "
            << has << "\n";
    }
  }
  return out.str();
}

TEST(IncrementalAttack, SweepAfterTwoHostsSwapCables) {
  auto t = make_kary_ntree(4, 3);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const NodeIndex h1 = by_name(rig.topo, "host-21"), h2 = by_name(rig.topo, "host-42");
  const NodeIndex l1 = rig.topo.node(h1).ports[1].peer, l2 = rig.topo.node(h2).ports[1].peer;
  ASSERT_NO_FATAL_FAILURE(swap_far_ends(rig, h1, 1, h2, 1));
  const SweepSummary s = runner.heavy_sweep({}, SweepScope::kChanged, {rig.fabric.lid(l1, 0), rig.fabric.lid(l2, 0)});
  std::cout << "[ info ] subnet_up " << s.subnet_up << " incremental " << s.incremental << " because '"
            << s.full_discovery_because << "'\n";
  EXPECT_EQ(runner_vs_fabric(rig, runner), "");
}

TEST(IncrementalAttack, SweepAfterTwoInterSwitchCablesSwapEnds) {
  auto t = make_kary_ntree(4, 3);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const NodeIndex a = by_name(rig.topo, "sw-L1-0"), c = by_name(rig.topo, "sw-L1-5");
  const NodeIndex b = rig.topo.node(a).ports[5].peer, d = rig.topo.node(c).ports[6].peer;
  ASSERT_NO_FATAL_FAILURE(swap_far_ends(rig, a, 5, c, 6));
  const SweepSummary s =
      runner.heavy_sweep({}, SweepScope::kChanged,
                         {rig.fabric.lid(a, 0), rig.fabric.lid(b, 0), rig.fabric.lid(c, 0), rig.fabric.lid(d, 0)});
  std::cout << "[ info ] subnet_up " << s.subnet_up << " incremental " << s.incremental << " because '"
            << s.full_discovery_because << "'\n";
  EXPECT_EQ(runner_vs_fabric(rig, runner), "");
  // Where do the switches' directed paths lead?
  const Topology& rt = *runner.topology();
  for (NodeIndex n : rt.switches()) {
    mad::SmpRequest req;
    req.path = mad::DrPath(rt.node(n).dr_path);
    req.attr_id = mad::attr::kNodeInfo;
    rig.batch.submit(req, [&, n](const mad::SmpReply& r) {
      ASSERT_EQ(r.outcome, mad::SmpOutcome::kOk);
      EXPECT_EQ(format_guid(mad::NodeInfo::decode(r.data).node_guid), format_guid(rt.node(n).guid))
          << rt.node(n).description << " path " << format_dr_path(rt.node(n).dr_path);
    });
  }
  rig.batch.wait();
}

TEST(IncrementalAttack, SweepManyRoundsOfFlapsOnATorus) {
  auto t = make_torus({4, 4}, 1);
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  std::mt19937 rng(7);
  std::vector<std::pair<NodeIndex, PortNum>> all;
  for (NodeIndex n : rig.topo.switches())
    for (const Port& p : rig.topo.node(n).ports)
      if (p.connected() && p.peer > n && rig.topo.node(p.peer).is_switch()) all.emplace_back(n, p.num);
  std::vector<bool> down(all.size(), false);
  unsigned incremental = 0;
  for (unsigned round = 0; round < 30; ++round) {
    std::vector<Lid> lids;
    for (unsigned i = 0, k = 1 + rng() % 3; i < k; ++i) {
      const std::size_t c = rng() % all.size();
      auto [n, p] = all[c];
      down[c] ? rig.fabric.relink(n, p) : rig.fabric.unlink(n, p);
      down[c] = !down[c];
      if (rng() % 2) lids.push_back(rig.fabric.lid(rng() % 2 ? n : rig.topo.node(n).ports[p].peer, 0));
    }
    if (lids.empty()) lids.push_back(rig.fabric.lid(all[0].first, 0));
    const SweepSummary s = runner.heavy_sweep({}, SweepScope::kChanged, lids);
    SCOPED_TRACE("round " + std::to_string(round) +
                 (s.incremental ? " incremental" : " full: " + s.full_discovery_because));
    incremental += s.incremental;
    EXPECT_TRUE(s.subnet_up) << test::first_problem(s);
    EXPECT_EQ(runner_vs_fabric(rig, runner), "");
  }
  std::cout << "[ info ] " << incremental << " of 30 sweeps incremental\n";
}

}  // namespace
}  // namespace smd
