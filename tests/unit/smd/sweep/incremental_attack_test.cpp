// Attacks on the incremental heavy sweep (incremental_discovery.h, SweepScope::kChanged), part two: loss
// during the sweep, impersonators, a stale previous fabric, many rounds of flaps, and whole sweeps. The correct outcome
// of every case is either ok with the fabric a full discovery of the same fake fabric finds (same nodes, same cables by
// GUID and port, every directed path reaching its node by NodeInfo), or a fallback (ok == false) whose reason names a
// node GUID and a DR path. Never a crash, a hang, a wrong topology or a path that leads somewhere else.
#include "tests/unit/smd/incremental_attack.h"

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
#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/discovered_subset.h"
#include "smd/sweep/incremental_discovery.h"
#include "smd/sweep/sweep_runner.h"

namespace smd::incremental_attack_test {
namespace {

using namespace test;  // the shared attack helpers and the rig

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
    if (r.ok()) {
      ++ok;
    } else {
      ++fallback;
      ++why[r.full_sweep_because().substr(r.full_sweep_because().rfind(':') + 1)];
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
    EXPECT_FALSE(r.ok());
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
  std::cout << "[ info ] clone: " << (r.ok() ? "ok" : r.full_sweep_because()) << "\n";
  if (r.ok()) {
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
  std::cout << "[ info ] loopback: " << (r.ok() ? "ok" : r.full_sweep_because()) << ", gaps left "
            << (r.ok() ? discovery_gaps(r.fabric) : 0) << ", gaps in a full discovery "
            << discovery_gaps(discover_fabric(rig.batch)) << "\n";
  ASSERT_TRUE(r.ok());
  clear_psc(rig);
  const NodeIndex x = by_name(rig.topo, "sw-L1-9");
  rig.fabric.unlink(x, 6);
  const IncrementalDiscovery next = rediscover_changed(rig.batch, r.fabric, {rig.guid(x)});
  std::cout << "[ info ] next change: " << (next.ok() ? "ok" : next.full_sweep_because()) << "\n";
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
        std::fprintf(stderr, "returned ok=%d %s\n", r.ok(), r.full_sweep_because().c_str());
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
    if (r.ok()) {
      ++st.ok;
      const std::string diff = compare_with_full(rig, r.fabric);
      EXPECT_EQ(diff, "");
      prev = diff.empty() ? r.fabric : discover_fabric(rig.batch);
    } else {
      ++st.fallback;
      expect_named_fallback(r);
      if (r.full_sweep_because().find("timeout") != std::string::npos)
        std::cout << "[ info ] no loss, yet: " << r.full_sweep_because() << "\n";
      std::string w = r.full_sweep_because();
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
  std::cout << "[ info ] long ring: " << (r.ok() ? "ok" : r.full_sweep_because()) << "\n";
  if (r.ok()) {
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
}  // namespace smd::incremental_attack_test
