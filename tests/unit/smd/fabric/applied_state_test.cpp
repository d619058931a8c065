// AppliedState's reset rule, case by case: what a sweep may still believe of each table after a node left
// the fabric, or after a switch reports a LinearFDBTop other than the one it acknowledged. The records are
// put in by hand and the fabric's SwitchInfo comes from a discovery of a fake fabric, so the expected
// outcome is read off the case, not computed by the code under test.
#include "smd/fabric/applied_state.h"

#include <gtest/gtest.h>

#include <memory>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/discovery.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::applied_state_test {
namespace {

// One record in every store for node `guid` (port 1; LFT block 0 and top `top` when it is a switch).
void record_everything(AppliedState& a, Guid guid, Lid top) {
  a.lft.record_lft_top(guid, top);
  a.lft.record_lft_block(guid, 0, AppliedLft::Block{});
  a.mft.record_top(guid, 0xC000);
  a.pkeys.record_enforcement(guid, 1, true, true);
  a.qos.record_sl2vl(guid, 0, 1, Sl2Vl{});
  mad::PortInfo pi;
  a.port_fields.record(guid, 1, pi, pi);
}

// Which stores still hold anything of `guid`, as "lft mft pkeys qos fields".
std::string held(const AppliedState& a, Guid guid) {
  std::string out;
  if (a.lft.lft(guid) != nullptr) out += "lft ";
  if (a.mft.mft(guid) != nullptr) out += "mft ";
  if (a.pkeys.port(guid, 1) != nullptr) out += "pkeys ";
  if (a.qos.port(guid, 1) != nullptr) out += "qos ";
  if (a.port_fields.port(guid, 1) != nullptr) out += "fields ";
  return out;
}

struct Rig {
  Rig() {
    auto t = make_kary_ntree(2, 2);
    EXPECT_TRUE(t.ok());
    rig = std::make_unique<test::SweepRig>(std::move(t.value()));
  }
  std::unique_ptr<test::SweepRig> rig;
};

TEST(AppliedState, ASwitchHoldingTheTopItAcknowledgedKeepsEveryTable) {
  Rig r;
  const SweepFabric fabric(discover_fabric(r.rig->batch));
  const NodeIndex sw = r.rig->topo.switches().front();
  const Guid guid = r.rig->guid(sw);
  AppliedState a;
  // The fake's switches start with LinearFDBTop 0, as ibsim's: that is what the SM acknowledged here.
  record_everything(a, guid, r.rig->fabric.lft_top(sw));
  EXPECT_TRUE(a.forget_reset(&r.rig->topo, fabric).empty());
  EXPECT_EQ(held(a, guid), "lft mft pkeys qos fields ");
}

TEST(AppliedState, AResetSwitchLosesEveryTableButTheLftItsPlanRewrites) {
  Rig r;
  const SweepFabric fabric(discover_fabric(r.rig->batch));
  const NodeIndex sw = r.rig->topo.switches().back();
  const NodeIndex other = r.rig->topo.switches().front();
  ASSERT_NE(sw, other);
  AppliedState a;
  // Acknowledged a top of 0x40 once; the switch now reports the 0 of a reset.
  ASSERT_EQ(r.rig->fabric.lft_top(sw), 0);
  record_everything(a, r.rig->guid(sw), 0x40);
  record_everything(a, r.rig->guid(other), 0);
  const std::vector<Guid> reset = a.forget_reset(&r.rig->topo, fabric);
  EXPECT_EQ(reset, std::vector<Guid>{r.rig->guid(sw)});
  EXPECT_EQ(held(a, r.rig->guid(sw)), "lft ");
  EXPECT_EQ(held(a, r.rig->guid(other)), "lft mft pkeys qos fields ");
}

TEST(AppliedState, ANodeThatLeftTheFabricIsBelievedToHoldNothingButItsLft) {
  Rig r;
  const SweepFabric fabric(discover_fabric(r.rig->batch));
  // The last sweep's topology had one more CA, gone from this sweep's fabric.
  Topology before = r.rig->topo;
  const Guid gone = 0x00ab000000000001;
  Node ca;
  ca.guid = gone;
  ca.num_ports = 1;
  ca.ports.resize(2);
  ASSERT_TRUE(before.add_node(ca).ok());
  AppliedState a;
  record_everything(a, gone, 0);
  EXPECT_TRUE(a.forget_reset(&before, fabric).empty());
  EXPECT_EQ(held(a, gone), "lft ");
  // Without a last topology nothing is known to have left.
  AppliedState b;
  record_everything(b, gone, 0);
  b.forget_reset(nullptr, fabric);
  EXPECT_EQ(held(b, gone), "lft mft pkeys qos fields ");
}

TEST(AppliedState, ForgetAndForgetAllReachEveryStore) {
  AppliedState a;
  record_everything(a, 1, 0);
  record_everything(a, 2, 0);
  a.forget(1);
  EXPECT_EQ(held(a, 1), "");
  EXPECT_EQ(held(a, 2), "lft mft pkeys qos fields ");
  a.forget_all();
  EXPECT_EQ(held(a, 2), "");
}

}  // namespace
}  // namespace smd::applied_state_test
