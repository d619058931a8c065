// The one recorder, answer by answer: what each kind of answer leaves in the applied stores and the
// sweep's view. Each case builds the write and the reply by hand (the rule of table_writer.h: believed
// only when echoed; a PortInfo answer is what the port holds, echoed or not).
#include "smd/program/applied_recorder.h"

#include <gtest/gtest.h>

#include <memory>

#include "mad/codec/port_info.h"
#include "mad/codec/sl2vl_table.h"
#include "mad/codec/switch_info.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "smd/sweep/discovery.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::applied_recorder_test {
namespace {

struct Fixture {
  Fixture() {
    auto t = make_kary_ntree(2, 2);
    EXPECT_TRUE(t.ok());
    rig = std::make_unique<test::SweepRig>(std::move(t.value()));
    fabric = SweepFabric(discover_fabric(rig->batch));
    sw = rig->topo.switches().front();
    guid = rig->guid(sw);
  }
  TableWrite write(std::uint16_t attr, std::uint32_t mod, EchoRule echo, PortNum port = 0) const {
    return make_set(sw, port, guid, mad::DrPath(rig->topo.node(sw).dr_path), attr, mod, echo);
  }
  std::unique_ptr<test::SweepRig> rig;
  SweepFabric fabric;
  NodeIndex sw = kNoNode;
  Guid guid = 0;
};

TEST(AppliedRecorder, AnEchoedLftBlockIsBelievedAndOneNotEchoedIsForgottenAndCounted) {
  Fixture f;
  AppliedTables lft;
  AppliedRecorder rec(f.fabric, AppliedStores{.lft = &lft});
  TableWrite w = f.write(mad::attr::kLinearForwardingTable, 2, EchoRule::kPayload);
  w.request.data[5] = 7;
  rec.answered(w, w.request.data, true);
  ASSERT_NE(lft.lft(f.guid), nullptr);
  AppliedLft::Block want{};
  want[5] = 7;
  EXPECT_TRUE(lft.lft(f.guid)->block_is(2, want));
  EXPECT_EQ(rec.failed(mad::attr::kLinearForwardingTable), 0u);
  rec.answered(w, mad::SmpData{}, false);
  EXPECT_FALSE(lft.lft(f.guid)->block_is(2, want));
  EXPECT_EQ(rec.failed(mad::attr::kLinearForwardingTable), 1u);
  rec.unanswered(w);
  EXPECT_EQ(rec.failed(mad::attr::kLinearForwardingTable), 2u);
}

TEST(AppliedRecorder, AnEchoedMulticastTopIsRecordedAndReachesTheSweepsView) {
  Fixture f;
  AppliedMft mft;
  AppliedRecorder rec(f.fabric, AppliedStores{.mft = &mft});
  mad::SwitchInfo si = *f.fabric.switch_info(f.sw);
  si.multicast_fdb_top = 0xC01F;
  TableWrite w = f.write(mad::attr::kSwitchInfo, 0, EchoRule::kMulticastFdbTop);
  si.encode(w.request.data);
  rec.answered(w, w.request.data, false);  // not echoed: nothing believed
  EXPECT_EQ(mft.mft(f.guid), nullptr);
  rec.answered(w, w.request.data, true);
  ASSERT_NE(mft.mft(f.guid), nullptr);
  EXPECT_EQ(mft.mft(f.guid)->top, Lid{0xC01F});
  EXPECT_EQ(f.fabric.switch_info(f.sw)->multicast_fdb_top, 0xC01F);
  EXPECT_EQ(rec.failed(mad::attr::kSwitchInfo), 0u);  // a top is not a table block
}

TEST(AppliedRecorder, AnSl2VlSetForAllPairsRecordsEveryInOutPairOfTheSwitch) {
  Fixture f;
  AppliedQos qos;
  AppliedRecorder rec(f.fabric, AppliedStores{.qos = &qos});
  mad::Sl2VlTable t;
  t.vl[3] = 1;
  TableWrite w = f.write(mad::attr::kSlToVlTable, mad::kSl2VlAllInputs | mad::kSl2VlAllOutputs, EchoRule::kSl2Vl);
  t.encode(w.request.data);
  rec.answered(w, w.request.data, true);
  const PortNum ports = f.rig->topo.node(f.sw).num_ports;
  for (PortNum out = 1; out <= ports; ++out) {
    const AppliedPortQos* held = qos.port(f.guid, out);
    ASSERT_NE(held, nullptr) << "out " << int{out};
    EXPECT_EQ(held->sl2vl.size(), ports + 1u) << "out " << int{out};
    EXPECT_TRUE(held->sl2vl_is(0, t.vl));
  }
  EXPECT_EQ(qos.port(f.guid, 0), nullptr);  // port 0 is never an output of the all-pairs Set
  rec.unanswered(w);
  EXPECT_TRUE(qos.port(f.guid, 1)->sl2vl.empty());
  EXPECT_EQ(rec.failed(mad::attr::kSlToVlTable), 1u);
}

TEST(AppliedRecorder, AnEnforcementAnswerIsRecordedEvenWhenNotEchoed) {
  Fixture f;
  AppliedPKeys pkeys;
  AppliedRecorder rec(f.fabric, AppliedStores{.pkeys = &pkeys});
  mad::PortInfo pi = *f.fabric.port_info(f.sw, 1);
  pi.partition_enforcement_inbound = true;
  pi.partition_enforcement_outbound = false;
  TableWrite w = f.write(mad::attr::kPortInfo, 1, EchoRule::kPortPartitionEnforcement, 1);
  mad::SmpData reply{};
  pi.encode(reply);
  rec.answered(w, reply, false);
  const AppliedPortPKeys* held = pkeys.port(f.guid, 1);
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->enforce_in, true);
  EXPECT_EQ(held->enforce_out, false);
  EXPECT_TRUE(f.fabric.port_info(f.sw, 1)->partition_enforcement_inbound);
  EXPECT_EQ(rec.failed(mad::attr::kPortInfo), 0u);
}

}  // namespace
}  // namespace smd::applied_recorder_test
