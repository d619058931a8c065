// The "QoS configured (SL2VL, VLArb)" phase in whole heavy sweeps against FakeFabric: two switches cabled
// once, two one-port hosts on each (make_two_switch(1, 2): switch ports 1 = the cable, 2..3 = hosts).
// Every port VLCap 4 (8 data VLs), VLArbitrationHighCap and LowCap 8, IsSLMappingSupported on the hosts.
// Counts by hand: SL2VL per switch = out 1..3 x in 0..3 = 12, per host 1: 2 * 12 + 4 = 28 tables.
// VLArb: 6 switch ports + 4 host ports, each one low block (1) and one high block (3): 20 blocks.
#include <gtest/gtest.h>

#include <algorithm>

#include "mad/codec/sl2vl_table.h"
#include "mad/codec/vlarb_table.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::qos_sweep_test {
namespace {

using test::first_problem;
using test::SweepRig;

std::unique_ptr<SweepRig> rig(bool qos, std::uint8_t high_cap = 8, std::uint8_t low_cap = 8,
                              std::uint8_t optimized = 0) {
  auto t = make_two_switch(1, 2);
  EXPECT_TRUE(t.ok());
  auto r = std::make_unique<SweepRig>(std::move(t.value()));
  r->fabric.enable_qos(high_cap, low_cap, optimized);
  r->policy.qos.enabled = qos;
  for (NodeIndex sw : r->topo.switches()) EXPECT_EQ(r->topo.node(sw).num_ports, 3);
  return r;
}

// A policy table unlike the fake's default (SL i -> VL i): SL i -> VL (7 - i % 8).
Sl2Vl reversed() {
  Sl2Vl t;
  for (std::size_t sl = 0; sl < 16; ++sl) t[sl] = static_cast<std::uint8_t>(7 - sl % 8);
  return t;
}

std::array<std::uint8_t, 16> as_array(const Sl2Vl& t) {
  std::array<std::uint8_t, 16> a{};
  std::copy(t.begin(), t.end(), a.begin());
  return a;
}

bool has_phase(const SweepSummary& s, SweepPhase id) {
  return std::any_of(s.phases.begin(), s.phases.end(), [&](const PhaseTime& p) { return p.id == id; });
}

TEST(QosSweep, NothingIsProgrammedWhenQosIsOff) {
  auto r = rig(false);
  r->policy.qos.ca.sl2vl = reversed();  // ignored: qos is off
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_TRUE(r->fabric.sl2vl_sets().empty());
  EXPECT_TRUE(r->fabric.vlarb_sets().empty());
  EXPECT_EQ(s.sl2vl_tables_written + s.sl2vl_tables_skipped + s.vlarb_blocks_written + s.vlarb_blocks_skipped, 0u);
  EXPECT_FALSE(has_phase(s, SweepPhase::kQos));
  EXPECT_EQ(r->runner().sl2vl_plan(), nullptr);
  const NodeIndex ca = r->topo.cas()[0];
  EXPECT_EQ(r->fabric.operational_vls(ca, 1), 4) << "min(VLCap) of both ends, not capped";
}

TEST(QosSweep, FirstSweepWritesEveryTableAndTheNextNothing) {
  auto r = rig(true);
  r->policy.qos.ca.sl2vl = reversed();
  r->policy.qos.switch_external.sl2vl = reversed();
  r->policy.qos.switch_external.sl2vl[0] = 3;
  r->policy.qos.ca.vlarb_low = {{0, 32}, {1, 64}};
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_TRUE(has_phase(s, SweepPhase::kQos));
  EXPECT_EQ(s.sl2vl_tables_written, 28u);
  EXPECT_EQ(s.sl2vl_tables_skipped, 0u);
  EXPECT_EQ(s.vlarb_blocks_written, 20u);
  EXPECT_EQ(s.vlarb_blocks_skipped, 0u);
  ASSERT_EQ(r->fabric.sl2vl_sets().size(), 28u);

  // Modifiers: a host gets 0; a switch in << 8 | out for out 1..3, in 0..3.
  std::vector<std::uint32_t> sw_mods, ca_mods;
  const NodeIndex sw = r->topo.switches()[0];
  const NodeIndex ca = r->topo.cas()[0];
  for (const auto& [n, mod] : r->fabric.sl2vl_sets()) {
    if (n == sw) sw_mods.push_back(mod);
    if (n == ca) ca_mods.push_back(mod);
  }
  std::sort(sw_mods.begin(), sw_mods.end());
  EXPECT_EQ(sw_mods, (std::vector<std::uint32_t>{0x001, 0x002, 0x003, 0x101, 0x102, 0x103, 0x201, 0x202, 0x203, 0x301,
                                                 0x302, 0x303}));
  EXPECT_EQ(ca_mods, (std::vector<std::uint32_t>{0}));

  Sl2Vl sw_want = reversed();
  sw_want[0] = 3;
  EXPECT_EQ(r->fabric.sl2vl(sw, 2, 1), as_array(sw_want));
  EXPECT_EQ(r->fabric.sl2vl(sw, 0, 3), as_array(sw_want));
  EXPECT_EQ(r->fabric.sl2vl(ca, 0, 1), as_array(reversed()));

  // VLArb modifiers: (block << 16) | port on a switch, | 0 on a host; blocks 1 and 3 only (caps 8).
  std::vector<std::uint32_t> arb_sw, arb_ca;
  for (const auto& [n, mod] : r->fabric.vlarb_sets()) {
    if (n == sw) arb_sw.push_back(mod);
    if (n == ca) arb_ca.push_back(mod);
  }
  std::sort(arb_sw.begin(), arb_sw.end());
  EXPECT_EQ(arb_sw, (std::vector<std::uint32_t>{0x10001, 0x10002, 0x10003, 0x30001, 0x30002, 0x30003}));
  std::sort(arb_ca.begin(), arb_ca.end());
  EXPECT_EQ(arb_ca, (std::vector<std::uint32_t>{0x10000, 0x30000}));
  const auto low = r->fabric.vlarb(ca, 1, 1);
  EXPECT_EQ(low[0], 0);
  EXPECT_EQ(low[1], 32);
  EXPECT_EQ(low[2], 1);
  EXPECT_EQ(low[3], 64);
  for (std::size_t i = 4; i < 64; ++i) EXPECT_EQ(low[i], 0) << "byte " << i;
  const auto high = r->fabric.vlarb(sw, 2, 3);  // OpenSM's default high 0:4, 1:0 ... cut to 8 entries
  EXPECT_EQ(high[0], 0);
  EXPECT_EQ(high[1], 4);
  EXPECT_EQ(high[2], 1);
  EXPECT_EQ(high[3], 0);
  EXPECT_EQ(high[14], 7);
  EXPECT_EQ(high[16], 0) << "entry 8 is past the cap: zero";

  const SweepSummary again = r->runner().heavy_sweep();
  ASSERT_TRUE(again.subnet_up) << first_problem(again);
  EXPECT_EQ(again.sl2vl_tables_written, 0u);
  EXPECT_EQ(again.sl2vl_tables_skipped, 28u);
  EXPECT_EQ(again.vlarb_blocks_written, 0u);
  EXPECT_EQ(again.vlarb_blocks_skipped, 20u);
  EXPECT_EQ(r->fabric.sl2vl_sets().size(), 28u);
}

TEST(QosSweep, APolicyChangeRewritesOnlyTheTablesThatDiffer) {
  auto r = rig(true);
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  Policy reloaded = r->policy;
  reloaded.qos.ca.sl2vl = reversed();                  // 4 host tables
  reloaded.qos.switch_external.vlarb_high = {{2, 9}};  // block 3 of the 6 switch ports
  r->runner().set_policy(reloaded);
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.sl2vl_tables_written, 4u);
  EXPECT_EQ(s.sl2vl_tables_skipped, 24u);
  EXPECT_EQ(s.vlarb_blocks_written, 6u);
  EXPECT_EQ(s.vlarb_blocks_skipped, 14u);
}

TEST(QosSweep, AResetSwitchIsWrittenAgainInFull) {
  auto r = rig(true);
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  const NodeIndex sw = r->topo.switches()[1];
  r->fabric.reset_switch(sw);  // LinearFDBTop 0: the SM believes nothing the switch held
  const SweepSummary s = r->runner().heavy_sweep();
  EXPECT_EQ(s.sl2vl_tables_written, 12u);
  EXPECT_EQ(s.sl2vl_tables_skipped, 16u);
  EXPECT_EQ(s.vlarb_blocks_written, 6u);
  EXPECT_EQ(s.vlarb_blocks_skipped, 14u);
}

TEST(QosSweep, CapsCutTheBlocksWritten) {
  // High cap 40: blocks 3 and 4 (entries 32..39 in block 4); low cap 0: no low block at all.
  auto r = rig(true, 40, 0);
  r->policy.qos.switch_external.vlarb_high.assign(64, VlArbEntry{5, 1});
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.vlarb_blocks_written, 10u * 2);
  const NodeIndex sw = r->topo.switches()[0];
  const auto b4 = r->fabric.vlarb(sw, 1, 4);
  EXPECT_EQ(b4[0], 5);
  EXPECT_EQ(b4[1], 1);
  EXPECT_EQ(b4[14], 5) << "entry 39";
  EXPECT_EQ(b4[15], 1);
  EXPECT_EQ(b4[16], 0) << "entry 40 is past the cap";
  EXPECT_EQ(b4[17], 0);
  for (const auto& [n, mod] : r->fabric.vlarb_sets()) EXPECT_GE(mod >> 16, 3u) << "no low block";
}

TEST(QosSweep, OptimizedSwitchesTakeOneSetForAllPairs) {
  auto r = rig(true, 8, 8, 3);
  r->policy.qos.switch_external.sl2vl = reversed();
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(s.sl2vl_tables_written, 2u + 4u);
  const NodeIndex sw = r->topo.switches()[0];
  unsigned sw_sets = 0;
  for (const auto& [n, mod] : r->fabric.sl2vl_sets()) {
    if (n != sw) continue;
    ++sw_sets;
    EXPECT_EQ(mod, 0x30000u);
  }
  EXPECT_EQ(sw_sets, 1u);
  EXPECT_EQ(r->fabric.sl2vl(sw, 3, 2), as_array(reversed()));
  const SweepSummary again = r->runner().heavy_sweep();
  EXPECT_EQ(again.sl2vl_tables_written, 0u);
  EXPECT_EQ(again.sl2vl_tables_skipped, 28u) << "the optimized Set is recorded for every pair";
}

TEST(QosSweep, VlHighLimitAndOperationalVlsFollowThePolicy) {
  auto r = rig(true);
  r->policy.qos.switch_external.high_limit = 9;
  r->policy.qos.ca.max_vls = 4;  // OperationalVLs code 3 (VL0-3) on the host ports
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  const NodeIndex sw = r->topo.switches()[0];
  const NodeIndex ca = r->topo.cas()[0];
  for (PortNum p = 1; p <= 3; ++p) EXPECT_EQ(r->fabric.vl_high_limit(sw, p), 9);
  EXPECT_EQ(r->fabric.vl_high_limit(ca, 1), 0);
  EXPECT_EQ(r->fabric.operational_vls(ca, 1), 3);
  EXPECT_EQ(r->fabric.operational_vls(sw, 1), 4) << "switch_external keeps max_vls 15: min(VLCap) 4";
  const SweepSummary again = r->runner().heavy_sweep();
  ASSERT_TRUE(again.subnet_up) << first_problem(again);
  EXPECT_EQ(again.port_sets, 0u) << "nothing differs on the second sweep";
}

TEST(QosSweep, TheSl2VlPlanIsThereBeforeTheWrites) {
  auto r = rig(true);
  r->policy.qos.switch_external.sl2vl = reversed();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  auto plan = r->runner().sl2vl_plan();
  ASSERT_NE(plan, nullptr);
  // The plan indexes the sweep's own topology (discovery order), not the rig's.
  const auto sw = r->runner().topology()->find(r->guid(r->topo.switches()[0]));
  const auto ca = r->runner().topology()->find(r->guid(r->topo.cas()[0]));
  ASSERT_TRUE(sw && ca);
  EXPECT_EQ(plan->table(*sw, 1, 2), reversed());
  EXPECT_EQ(plan->table(*ca, 0, 1), r->policy.qos.ca.sl2vl);
}

}  // namespace
}  // namespace smd::qos_sweep_test
