// Congestion Control codecs (mad/codec/cc.h): bytes written by hand from IBA Annex A10's tables, and every
// field against libibmad's IB_CC_* field tables (relative to the attribute data, a CA entry, a CCT entry or a
// switch port element, as libibmad defines them): two witnesses that are not smd's code.
#include "mad/codec/cc.h"

#include <gtest/gtest.h>
#include <infiniband/mad.h>

#include <random>

namespace smd::mad::cc_test {
namespace {

std::uint32_t ibmad(const std::uint8_t* p, MAD_FIELDS f) { return mad_get_field(const_cast<std::uint8_t*>(p), 0, f); }

TEST(CcMad, RequestHeaderCarriesClassVersionKeyAndData) {
  CcData data{};
  data[0] = 0xAB;
  data[191] = 0xCD;
  const auto m =
      make_cc_request(0x02, cc_attr::kCongestionControlTable, 1, 0x1122334455667788ULL, 0x0102030405060708ULL, data);
  EXPECT_EQ(m[0], 1);     // BaseVersion
  EXPECT_EQ(m[1], 0x21);  // MgmtClass
  EXPECT_EQ(m[2], 2);     // ClassVersion
  EXPECT_EQ(m[3], 0x02);  // Set
  EXPECT_EQ(m[8], 0x11);
  EXPECT_EQ(m[15], 0x88);
  EXPECT_EQ(m[16], 0x00);
  EXPECT_EQ(m[17], 0x17);  // AttributeID
  EXPECT_EQ(m[23], 0x01);  // AttributeModifier, low byte
  for (int i = 0; i < 8; ++i) EXPECT_EQ(m[24 + i], i + 1) << "CC_Key byte " << i;
  for (int i = 32; i < 64; ++i) EXPECT_EQ(m[i], 0) << "reserved byte " << i;
  EXPECT_EQ(m[64], 0xAB);
  EXPECT_EQ(m[255], 0xCD);
  // libibmad reads the key where A10.4.1 puts it.
  EXPECT_EQ(mad_get_field64(const_cast<std::uint8_t*>(m.data()), 0, IB_CC_CCKEY_F), 0x0102030405060708ULL);
}

TEST(CcMad, ResponseParsedOnlyForClass21Responses) {
  std::array<std::uint8_t, kMadSize> m{};
  m[1] = 0x21;
  m[3] = 0x81;
  m[5] = 0x1C;  // status
  m[17] = 0x16;
  m[20] = 0x00;
  m[23] = 0x05;
  m[64] = 0x42;
  auto r = parse_cc_response(m);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 0x1C);
  EXPECT_EQ(r->attr, 0x16);
  EXPECT_EQ(r->mod, 5u);
  EXPECT_EQ(r->data[0], 0x42);
  EXPECT_EQ(r->data.size(), 192u);
  m[3] = 0x01;  // a Get, not a response
  EXPECT_FALSE(parse_cc_response(m));
  m[3] = 0x81;
  m[1] = 0x04;
  EXPECT_FALSE(parse_cc_response(m));
}

TEST(CcMad, CongestionInfoBytes) {
  CcData d{};
  d[0] = 0x00;
  d[1] = 0x01;
  d[2] = 0x02;
  const auto c = CongestionInfo::decode(d);
  EXPECT_EQ(c.congestion_info, 1);
  EXPECT_EQ(c.control_table_cap, 2);
  EXPECT_EQ(ibmad(d.data(), IB_CC_CONGESTION_INFO_F), 1u);
  EXPECT_EQ(ibmad(d.data(), IB_CC_CONGESTION_INFO_CONTROL_TABLE_CAP_F), 2u);
}

TEST(CcMad, SwitchCongestionSettingBytesByHand) {
  SwitchCongestionSetting s;
  s.control_map = 0x0000001F;
  s.victim_mask[31] = 0x0E;  // ports 1, 2, 3
  s.credit_mask[0] = 0x40;   // port 254
  s.threshold = 0xF;
  s.packet_size = 8;
  s.cs_threshold = 0x3;
  s.cs_return_delay = (2u << 14) | 10u;
  s.marking_rate = 0x1234;
  CcData d{};
  d.fill(0xFF);  // reserved bits must survive
  std::fill(d.begin(), d.begin() + 76, 0);
  d[68] = 0x05;  // reserved low nibble of byte 68
  s.encode(d);
  EXPECT_EQ(d[3], 0x1F);
  EXPECT_EQ(d[4 + 31], 0x0E);
  EXPECT_EQ(d[36], 0x40);
  EXPECT_EQ(d[68], 0xF5);
  EXPECT_EQ(d[69], 8);
  EXPECT_EQ(d[70], 0x30);
  EXPECT_EQ(d[72], 0x80);
  EXPECT_EQ(d[73], 10);
  EXPECT_EQ(d[74], 0x12);
  EXPECT_EQ(d[75], 0x34);
  EXPECT_EQ(d[76], 0xFF);
  // libibmad's reading of the same bytes.
  EXPECT_EQ(ibmad(d.data(), IB_CC_SWITCH_CONGESTION_SETTING_CONTROL_MAP_F), 0x1Fu);
  EXPECT_EQ(ibmad(d.data(), IB_CC_SWITCH_CONGESTION_SETTING_THRESHOLD_F), 0xFu);
  EXPECT_EQ(ibmad(d.data(), IB_CC_SWITCH_CONGESTION_SETTING_PACKET_SIZE_F), 8u);
  EXPECT_EQ(ibmad(d.data(), IB_CC_SWITCH_CONGESTION_SETTING_CS_THRESHOLD_F), 3u);
  EXPECT_EQ(ibmad(d.data(), IB_CC_SWITCH_CONGESTION_SETTING_CS_RETURN_DELAY_F), (2u << 14) | 10u);
  EXPECT_EQ(ibmad(d.data(), IB_CC_SWITCH_CONGESTION_SETTING_MARKING_RATE_F), 0x1234u);
  std::uint8_t mask[32];
  mad_get_array(d.data(), 0, IB_CC_SWITCH_CONGESTION_SETTING_VICTIM_MASK_F, mask);
  EXPECT_EQ(mask[31], 0x0E);
  mad_get_array(d.data(), 0, IB_CC_SWITCH_CONGESTION_SETTING_CREDIT_MASK_F, mask);
  EXPECT_EQ(mask[0], 0x40);
  EXPECT_EQ(SwitchCongestionSetting::decode(d).cs_return_delay, s.cs_return_delay);
  EXPECT_EQ(SwitchCongestionSetting::decode(d).victim_mask, s.victim_mask);
}

TEST(CcMad, SwitchPortElementAgainstLibibmad) {
  std::mt19937_64 rng(21);
  for (int i = 0; i < 200; ++i) {
    CcData d{};
    for (auto& b : d) b = static_cast<std::uint8_t>(rng());
    const std::size_t index = rng() % 32;
    const auto e = SwitchPortCongestionElement::decode(d, index);
    const std::uint8_t* el = d.data() + 4 * index;
    ASSERT_EQ(e.valid, ibmad(el, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_VALID_F));
    ASSERT_EQ(e.control_type, ibmad(el, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_CONTROL_TYPE_F));
    ASSERT_EQ(e.threshold, ibmad(el, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_THRESHOLD_F));
    ASSERT_EQ(e.packet_size, ibmad(el, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_PACKET_SIZE_F));
    ASSERT_EQ(e.cong_parm_marking_rate,
              ibmad(el, IB_CC_SWITCH_PORT_CONGESTION_SETTING_ELEMENT_CONG_PARM_MARKING_RATE_F));
    CcData again = d;
    e.encode(again, index);
    ASSERT_EQ(again, d) << "decode-then-encode keeps every byte";
  }
}

TEST(CcMad, CaCongestionSettingAgainstLibibmadAndByHand) {
  CaCongestionSetting s;
  s.port_control = 1;
  s.control_map = 0x8001;
  s.entries[0] = {0x0102, 3, 4, 5};
  s.entries[15] = {0xFFFE, 7, 8, 9};
  CcData d{};
  s.encode(d);
  // Hand layout: Port_Control 0..1, Control_Map 2..3, SL N's entry at 4 + 8N.
  const std::array<std::uint8_t, 12> head{0x00, 0x01, 0x80, 0x01, 0x01, 0x02, 3, 4, 5, 0, 0, 0};
  EXPECT_TRUE(std::equal(head.begin(), head.end(), d.begin()));
  EXPECT_EQ(d[4 + 8 * 15], 0xFF);
  EXPECT_EQ(d[4 + 8 * 15 + 1], 0xFE);
  EXPECT_EQ(d[4 + 8 * 15 + 4], 9);
  EXPECT_EQ(ibmad(d.data(), IB_CC_CA_CONGESTION_SETTING_PORT_CONTROL_F), 1u);
  EXPECT_EQ(ibmad(d.data(), IB_CC_CA_CONGESTION_SETTING_CONTROL_MAP_F), 0x8001u);
  std::mt19937_64 rng(16);
  for (int i = 0; i < 200; ++i) {
    CcData r{};
    for (auto& b : r) b = static_cast<std::uint8_t>(rng());
    const auto c = CaCongestionSetting::decode(r);
    for (std::size_t sl = 0; sl < 16; ++sl) {
      const std::uint8_t* e = r.data() + 4 + 8 * sl;
      ASSERT_EQ(c.entries[sl].ccti_timer, ibmad(e, IB_CC_CA_CONGESTION_ENTRY_CCTI_TIMER_F));
      ASSERT_EQ(c.entries[sl].ccti_increase, ibmad(e, IB_CC_CA_CONGESTION_ENTRY_CCTI_INCREASE_F));
      ASSERT_EQ(c.entries[sl].trigger_threshold, ibmad(e, IB_CC_CA_CONGESTION_ENTRY_TRIGGER_THRESHOLD_F));
      ASSERT_EQ(c.entries[sl].ccti_min, ibmad(e, IB_CC_CA_CONGESTION_ENTRY_CCTI_MIN_F));
    }
  }
}

TEST(CcMad, CongestionControlTableAgainstLibibmadAndByHand) {
  CongestionControlTable t;
  t.ccti_limit = 127;
  t.entries[0] = {1, 0x3FFF};
  t.entries[63] = {3, 2};
  CcData d{};
  t.encode(d);
  EXPECT_EQ(d[0], 0);
  EXPECT_EQ(d[1], 127);
  EXPECT_EQ(d[4], 0x7F);  // 01 11111111111111
  EXPECT_EQ(d[5], 0xFF);
  EXPECT_EQ(d[4 + 126], 0xC0);
  EXPECT_EQ(d[4 + 127], 0x02);
  EXPECT_EQ(ibmad(d.data(), IB_CC_CONGESTION_CONTROL_TABLE_CCTI_LIMIT_F), 127u);
  for (std::size_t i : {std::size_t{0}, std::size_t{63}}) {
    const std::uint8_t* e = d.data() + 4 + 2 * i;
    EXPECT_EQ(ibmad(e, IB_CC_CONGESTION_CONTROL_TABLE_ENTRY_CCT_SHIFT_F), t.entries[i].shift);
    EXPECT_EQ(ibmad(e, IB_CC_CONGESTION_CONTROL_TABLE_ENTRY_CCT_MULTIPLIER_F), t.entries[i].multiplier);
  }
  EXPECT_EQ(CongestionControlTable::decode(d).entries, t.entries);
}

TEST(CcMad, CongestionKeyInfoAgainstLibibmad) {
  CongestionKeyInfo k{0x1122334455667788ULL, 1, 600, 7};
  CcData d{};
  k.encode(d);
  auto* p = d.data();
  EXPECT_EQ(mad_get_field64(p, 0, IB_CC_CONGESTION_KEY_INFO_CC_KEY_F), k.cc_key);
  EXPECT_EQ(ibmad(p, IB_CC_CONGESTION_KEY_INFO_CC_KEY_PROTECT_BIT_F), 1u);
  EXPECT_EQ(ibmad(p, IB_CC_CONGESTION_KEY_INFO_CC_KEY_LEASE_PERIOD_F), 600u);
  EXPECT_EQ(ibmad(p, IB_CC_CONGESTION_KEY_INFO_CC_KEY_VIOLATIONS_F), 7u);
  const auto back = CongestionKeyInfo::decode(d);
  EXPECT_EQ(back.cc_key, k.cc_key);
  EXPECT_EQ(back.lease_period, 600);
}

}  // namespace
}  // namespace smd::mad::cc_test
