// MulticastForwardingTableRecord (SA 0x0017, IBA 15.2.5.8) through answer_mad, from a hand-made SaMfts.
// Record layout written here from the IBA, not from mad/sa: LID bytes 0-1; byte 2 bits 7:4 Position,
// bytes 2-3 bits 8:0 BlockNum; MFT at byte 8, 32 big-endian 16-bit PortMasks, entry i = MLID
// 0xC000 + 32 * block + i, bit j = port 16 * Position + j.
#include <gtest/gtest.h>

#include "tests/unit/smd/sa/sa_rig.h"

namespace smd::sa::sa_mft_records_test {
namespace {

using namespace testing;

constexpr std::uint16_t kMftRecord = 0x0017;
constexpr std::uint64_t kLid = 1u << 0, kPosition = 1u << 1, kBlock = 1u << 3;

class SaMftRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    // Both switches forward multicast (MulticastFDBCap 1024); S1 has 20 ports in this test so that it has
    // PortMask positions 0 and 1.
    ObservedFabric obs = rig.fabric->observed();
    for (NodeIndex s : {rig.s0, rig.s1}) {
      mad::SwitchInfo si;
      si.linear_fdb_cap = 49152;
      si.multicast_fdb_cap = 1024;
      obs.nodes[s].switch_info = si;
    }
    auto topo = std::make_shared<Topology>(*obs.topo);
    topo->mutable_node(rig.s1).num_ports = 20;
    topo->mutable_node(rig.s1).ports.resize(21);
    obs.nodes[rig.s1].ports.resize(21);
    obs.topo = topo;
    rig.fabric = SaFabric::build(std::move(obs), rig.lids, rig.tables, kPrefix);
    rig.snap.fabric = rig.fabric;
    auto mfts = std::make_shared<SaMfts>();
    mfts->highest_mlid = 0xC021;  // blocks 0 and 1
    McastPortMask m0;             // S0, MLID 0xC000: ports 2 and 3 (A, B) and port 1 (to S1)
    m0.set(1);
    m0.set(2);
    m0.set(3);
    McastPortMask m1;  // S1, MLID 0xC021: ports 1 and 18
    m1.set(1);
    m1.set(18);
    mfts->by_switch[kS0][0xC000] = m0;
    mfts->by_switch[kS1][0xC021] = m1;
    rig.snap.mfts = mfts;
  }

  Answer mftr(std::uint8_t method, std::uint64_t mask, Lid lid, unsigned position, unsigned block) {
    Mad m = request(method, kMftRecord, mask);
    auto r = rec_of(m);
    put16(r, 0, lid);
    put16(r, 2, static_cast<std::uint16_t>(position << 12 | block));
    return ask(rig.snap, state, m);
  }
  static unsigned position_of(std::span<const std::uint8_t> r) { return r[2] >> 4; }
  static unsigned block_of(std::span<const std::uint8_t> r) { return static_cast<unsigned>(get_be(r, 2, 2) & 0x1FF); }
  static unsigned mask_of(std::span<const std::uint8_t> r, unsigned entry) {
    return static_cast<unsigned>(get_be(r, 8 + 2 * entry, 2));
  }

  Rig rig = make_rig();
  SaState state;
};

TEST_F(SaMftRecords, GetOneBlockOfOneSwitch) {
  const Answer a = mftr(IB_MAD_METHOD_GET, kLid | kPosition | kBlock, 1, 0, 0);
  ASSERT_EQ(a.status(), 0);
  const auto r = a.record(0);
  EXPECT_EQ(get_be(r, 0, 2), 1u);
  EXPECT_EQ(position_of(r), 0u);
  EXPECT_EQ(block_of(r), 0u);
  EXPECT_EQ(mask_of(r, 0), 0b1110u) << "MLID 0xC000: ports 1, 2, 3";
  for (unsigned e = 1; e < 32; ++e) EXPECT_EQ(mask_of(r, e), 0u) << "entry " << e;
}

TEST_F(SaMftRecords, PositionsCarryTheirSixteenPorts) {
  // S1 (LID 2), MLID 0xC021 = block 1, entry 1: port 1 in position 0 (bit 1), port 18 in position 1 (bit 2).
  const Answer p0 = mftr(IB_MAD_METHOD_GET, kLid | kPosition | kBlock, 2, 0, 1);
  ASSERT_EQ(p0.status(), 0);
  EXPECT_EQ(mask_of(p0.record(0), 1), 1u << 1);
  const Answer p1 = mftr(IB_MAD_METHOD_GET, kLid | kPosition | kBlock, 2, 1, 1);
  ASSERT_EQ(p1.status(), 0);
  EXPECT_EQ(position_of(p1.record(0)), 1u);
  EXPECT_EQ(mask_of(p1.record(0), 1), 1u << 2);
  EXPECT_EQ(mftr(IB_MAD_METHOD_GET, kLid | kPosition | kBlock, 1, 1, 0).status(), 0x0300)
      << "S0 has 8 ports: position 0 only";
  EXPECT_EQ(mftr(IB_MAD_METHOD_GET, kLid | kBlock, 1, 0, 2).status(), 0x0300) << "block 2 is beyond 0xC021";
  EXPECT_EQ(mftr(IB_MAD_METHOD_GET, kLid | kBlock, 3, 0, 0).status(), 0x0300) << "LID 3 is a CA";
}

TEST_F(SaMftRecords, GetTableEnumeratesSwitchesBlocksAndPositions) {
  // S0: 2 blocks x 1 position; S1: 2 blocks x 2 positions.
  const Answer all = mftr(IB_MAD_METHOD_GET_TABLE, 0, 0, 0, 0);
  ASSERT_EQ(all.status(), 0);
  EXPECT_EQ(all.outcome.records, 6u);
  const Answer s1 = mftr(IB_MAD_METHOD_GET_TABLE, kLid, 2, 0, 0);
  EXPECT_EQ(s1.outcome.records, 4u);
  const Answer block1 = mftr(IB_MAD_METHOD_GET_TABLE, kBlock, 0, 0, 1);
  EXPECT_EQ(block1.outcome.records, 3u);
  const Answer pos1 = mftr(IB_MAD_METHOD_GET_TABLE, kPosition, 0, 1, 0);
  EXPECT_EQ(pos1.outcome.records, 2u);
  EXPECT_EQ(mftr(IB_MAD_METHOD_GET, kLid, 2, 0, 0).status(), 0x0400) << "a Get matching four";
}

TEST_F(SaMftRecords, NoMulticastNoRecordsAndNoSet) {
  rig.snap.mfts = nullptr;
  EXPECT_EQ(mftr(IB_MAD_METHOD_GET_TABLE, 0, 0, 0, 0).outcome.records, 0u);
  EXPECT_EQ(mftr(IB_MAD_METHOD_GET, kLid, 1, 0, 0).status(), 0x0300);
  EXPECT_EQ(mftr(IB_MAD_METHOD_SET, kLid, 1, 0, 0).status(), 0x000C);
}

}  // namespace
}  // namespace smd::sa::sa_mft_records_test
