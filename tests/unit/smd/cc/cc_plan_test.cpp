// The congestion-control plan (smd/cc/cc_plan.h): wanted bytes laid out by hand from Annex A10's tables, Sets
// only where a read differs, none for unread attributes, CCT blocks bounded by ControlTableCap.
#include "smd/cc/cc_plan.h"

#include <gtest/gtest.h>

namespace smd::cc_plan_test {
namespace {

CongestionControlPolicy sample_policy() {
  CongestionControlPolicy p;
  p.enabled = true;
  p.sw.control_map = 0x1F;
  p.sw.victim_mask[31] = 0x06;
  p.sw.threshold = 0xA;
  p.sw.packet_size = 4;
  p.sw.credit_starvation_threshold = 2;
  p.sw.credit_starvation_return_delay = (1u << 14) | 7u;
  p.sw.marking_rate = 300;
  p.ca.port_control = 1;
  p.ca.control_map = 0x0003;
  p.ca.entries[1] = {1000, 2, 3, 4};
  for (unsigned i = 0; i < 70; ++i) p.cct.push_back(static_cast<std::uint16_t>(((i % 4) << 14) | i));
  return p;
}

TEST(CcPlan, WantedBytesFollowTheAnnexLayout) {
  const CongestionControlPolicy p = sample_policy();
  const mad::CcData sw = wanted_switch_setting(p);
  EXPECT_EQ(sw[3], 0x1F);       // Control_Map, bytes 0..3
  EXPECT_EQ(sw[4 + 31], 0x06);  // Victim_Mask, bytes 4..35, ports 1 and 2
  EXPECT_EQ(sw[68], 0xA0);      // Threshold, high nibble of byte 68
  EXPECT_EQ(sw[69], 4);         // Packet_Size
  EXPECT_EQ(sw[70], 0x20);      // CS_Threshold, high nibble
  EXPECT_EQ(sw[72], 0x40);      // CS_ReturnDelay: shift 1 in the top two bits
  EXPECT_EQ(sw[73], 7);
  EXPECT_EQ(sw[74], 0x01);  // Marking_Rate 300 = 0x012C
  EXPECT_EQ(sw[75], 0x2C);
  const mad::CcData ca = wanted_ca_setting(p);
  EXPECT_EQ(ca[1], 1);         // Port_Control
  EXPECT_EQ(ca[3], 3);         // Control_Map
  EXPECT_EQ(ca[4 + 8], 0x03);  // SL 1's CCTI_Timer 1000 = 0x03E8
  EXPECT_EQ(ca[4 + 8 + 1], 0xE8);
  EXPECT_EQ(ca[4 + 8 + 2], 2);
  EXPECT_EQ(ca[4 + 8 + 4], 4);
  const auto cct = wanted_cct_blocks(p);
  ASSERT_EQ(cct.size(), 2u);                      // 70 entries: two blocks of 64
  for (const auto& b : cct) EXPECT_EQ(b[1], 69);  // CCTI_Limit in every block
  EXPECT_EQ(cct[1][4], 0x00);                     // entry 64: shift 0, multiplier 64 -> 0x0040
  EXPECT_EQ(cct[1][5], 0x40);
  EXPECT_EQ(cct[1][8], 0x80);  // entry 66: shift 2, multiplier 66 -> 0x8042
  EXPECT_EQ(cct[1][9], 0x42);
  EXPECT_EQ(cct[1][4 + 2 * 6], 0);     // past entry 69: zero
  EXPECT_EQ(cct[0][4 + 2 * 3], 0xC0);  // entry 3: shift 3, multiplier 3
  EXPECT_EQ(cct[0][4 + 2 * 3 + 1], 3);
}

TEST(CcPlan, OnlyWhatDiffersIsWritten) {
  const CongestionControlPolicy p = sample_policy();
  const std::vector<CcTarget> targets = {{0x20, 0, 2, true, "sw"}, {0x10, 1, 5, false, "ca"}};
  std::vector<CcReading> read(2);
  read[0].switch_setting = mad::CcData{};
  read[1].ca_setting = mad::CcData{};
  read[1].info = mad::CongestionInfo{0, 1};  // holds one CCT block only
  read[1].cct_blocks = {mad::CcData{}};
  auto plan = plan_cc_writes(targets, read, p);
  ASSERT_EQ(plan.size(), 3u);
  EXPECT_EQ(plan[0].attr, mad::cc_attr::kSwitchCongestionSetting);
  EXPECT_EQ(plan[0].target, 0u);
  EXPECT_EQ(plan[1].attr, mad::cc_attr::kCaCongestionSetting);
  EXPECT_EQ(plan[2].attr, mad::cc_attr::kCongestionControlTable);
  EXPECT_EQ(plan[2].mod, 0u);
  // What each Set carries, read back as the agent answers it: believed. Reserved bytes an agent fills do
  // not count.
  for (const CcWrite& w : plan) {
    mad::CcData echo = w.data;
    echo[191] = 0xEE;
    EXPECT_TRUE(cc_echoed(w, echo)) << describe_cc_attr(w.attr, w.mod);
  }
  mad::CcData wrong = plan[0].data;
  wrong[69] ^= 1;
  EXPECT_FALSE(cc_echoed(plan[0], wrong));

  // Agents that hold the policy get nothing; reserved bits set in a reading change nothing.
  read[0].switch_setting = plan[0].data;
  (*read[0].switch_setting)[68] |= 0x0F;  // reserved low nibble of Threshold's byte
  read[1].ca_setting = plan[1].data;
  read[1].cct_blocks = {plan[2].data};
  EXPECT_TRUE(plan_cc_writes(targets, read, p).empty());

  // Unread attributes are not written blind; a CA without a CCT gets no table.
  std::vector<CcReading> unread(2);
  unread[1].ca_setting = plan[1].data;
  unread[1].info = mad::CongestionInfo{0, 0};
  EXPECT_TRUE(plan_cc_writes(targets, unread, p).empty());
}

TEST(CcPlan, NoCctInThePolicyMeansNoTableWrites) {
  CongestionControlPolicy p = sample_policy();
  p.cct.clear();
  EXPECT_TRUE(wanted_cct_blocks(p).empty());
  const std::vector<CcTarget> targets = {{0x10, 1, 5, false, "ca"}};
  std::vector<CcReading> read(1);
  read[0].info = mad::CongestionInfo{0, 2};
  read[0].cct_blocks = {mad::CcData{}, mad::CcData{}};
  EXPECT_TRUE(plan_cc_writes(targets, read, p).empty());
}

}  // namespace
}  // namespace smd::cc_plan_test
