// PortInfo codec vs libibmad's IB_PORT_*_F field table, every field, plus read-modify-write fidelity.
#include "mad/codec/port_info.h"

#include "tests/unit/mad/field_table.h"

namespace smd::mad::port_info_test {
namespace {

using testing::FieldCase;

std::vector<FieldCase<PortInfo>> port_info_fields() {
  return {
      SMD_FIELD(PortInfo, IB_PORT_MKEY_F, m_key, 64),
      SMD_FIELD(PortInfo, IB_PORT_GID_PREFIX_F, gid_prefix, 64),
      SMD_FIELD(PortInfo, IB_PORT_LID_F, lid, 16),
      SMD_FIELD(PortInfo, IB_PORT_SMLID_F, master_sm_lid, 16),
      SMD_FIELD(PortInfo, IB_PORT_CAPMASK_F, capability_mask, 32),
      SMD_FIELD(PortInfo, IB_PORT_DIAG_F, diag_code, 16),
      SMD_FIELD(PortInfo, IB_PORT_MKEY_LEASE_F, m_key_lease_period, 16),
      SMD_FIELD(PortInfo, IB_PORT_LOCAL_PORT_F, local_port_num, 8),
      SMD_FIELD(PortInfo, IB_PORT_LINK_WIDTH_ENABLED_F, link_width_enabled, 8),
      SMD_FIELD(PortInfo, IB_PORT_LINK_WIDTH_SUPPORTED_F, link_width_supported, 8),
      SMD_FIELD(PortInfo, IB_PORT_LINK_WIDTH_ACTIVE_F, link_width_active, 8),
      SMD_FIELD(PortInfo, IB_PORT_LINK_SPEED_SUPPORTED_F, link_speed_supported, 4),
      SMD_FIELD(PortInfo, IB_PORT_STATE_F, port_state, 4),
      SMD_FIELD(PortInfo, IB_PORT_PHYS_STATE_F, port_physical_state, 4),
      SMD_FIELD(PortInfo, IB_PORT_LINK_DOWN_DEF_F, link_down_default_state, 4),
      SMD_FIELD(PortInfo, IB_PORT_MKEY_PROT_BITS_F, m_key_protect_bits, 2),
      SMD_FIELD(PortInfo, IB_PORT_LMC_F, lmc, 3),
      SMD_FIELD(PortInfo, IB_PORT_LINK_SPEED_ACTIVE_F, link_speed_active, 4),
      SMD_FIELD(PortInfo, IB_PORT_LINK_SPEED_ENABLED_F, link_speed_enabled, 4),
      SMD_FIELD(PortInfo, IB_PORT_NEIGHBOR_MTU_F, neighbor_mtu, 4),
      SMD_FIELD(PortInfo, IB_PORT_SMSL_F, master_sm_sl, 4),
      SMD_FIELD(PortInfo, IB_PORT_VL_CAP_F, vl_cap, 4),
      SMD_FIELD(PortInfo, IB_PORT_INIT_TYPE_F, init_type, 4),
      SMD_FIELD(PortInfo, IB_PORT_VL_HIGH_LIMIT_F, vl_high_limit, 8),
      SMD_FIELD(PortInfo, IB_PORT_VL_ARBITRATION_HIGH_CAP_F, vl_arbitration_high_cap, 8),
      SMD_FIELD(PortInfo, IB_PORT_VL_ARBITRATION_LOW_CAP_F, vl_arbitration_low_cap, 8),
      SMD_FIELD(PortInfo, IB_PORT_INIT_TYPE_REPLY_F, init_type_reply, 4),
      SMD_FIELD(PortInfo, IB_PORT_MTU_CAP_F, mtu_cap, 4),
      SMD_FIELD(PortInfo, IB_PORT_VL_STALL_COUNT_F, vl_stall_count, 3),
      SMD_FIELD(PortInfo, IB_PORT_HOQ_LIFE_F, hoq_life, 5),
      SMD_FIELD(PortInfo, IB_PORT_OPER_VLS_F, operational_vls, 4),
      SMD_FIELD(PortInfo, IB_PORT_PART_EN_INB_F, partition_enforcement_inbound, 1),
      SMD_FIELD(PortInfo, IB_PORT_PART_EN_OUTB_F, partition_enforcement_outbound, 1),
      SMD_FIELD(PortInfo, IB_PORT_FILTER_RAW_INB_F, filter_raw_inbound, 1),
      SMD_FIELD(PortInfo, IB_PORT_FILTER_RAW_OUTB_F, filter_raw_outbound, 1),
      SMD_FIELD(PortInfo, IB_PORT_MKEY_VIOL_F, m_key_violations, 16),
      SMD_FIELD(PortInfo, IB_PORT_PKEY_VIOL_F, p_key_violations, 16),
      SMD_FIELD(PortInfo, IB_PORT_QKEY_VIOL_F, q_key_violations, 16),
      SMD_FIELD(PortInfo, IB_PORT_GUID_CAP_F, guid_cap, 8),
      SMD_FIELD(PortInfo, IB_PORT_CLIENT_REREG_F, client_reregister, 1),
      SMD_FIELD(PortInfo, IB_PORT_MCAST_PKEY_SUPR_ENAB_F, multicast_pkey_trap_suppression_enabled, 2),
      SMD_FIELD(PortInfo, IB_PORT_SUBN_TIMEOUT_F, subnet_timeout, 5),
      SMD_FIELD(PortInfo, IB_PORT_RESP_TIME_VAL_F, resp_time_value, 5),
      SMD_FIELD(PortInfo, IB_PORT_LOCAL_PHYS_ERR_F, local_phy_errors, 4),
      SMD_FIELD(PortInfo, IB_PORT_OVERRUN_ERR_F, overrun_errors, 4),
      SMD_FIELD(PortInfo, IB_PORT_MAX_CREDIT_HINT_F, max_credit_hint, 16),
      SMD_FIELD(PortInfo, IB_PORT_LINK_ROUND_TRIP_F, link_round_trip_latency, 24),
      SMD_FIELD(PortInfo, IB_PORT_CAPMASK2_F, capability_mask2, 16),
      SMD_FIELD(PortInfo, IB_PORT_LINK_SPEED_EXT_ACTIVE_F, link_speed_ext_active, 4),
      SMD_FIELD(PortInfo, IB_PORT_LINK_SPEED_EXT_SUPPORTED_F, link_speed_ext_supported, 4),
      SMD_FIELD(PortInfo, IB_PORT_LINK_SPEED_EXT_ENABLED_F, link_speed_ext_enabled, 5),
  };
}

TEST(PortInfo, DecodeMatchesLibibmadOnRandomPayloads) {
  testing::check_decode_against_oracle(port_info_fields(), 21, 2000);
}

TEST(PortInfo, EncodeIsReadBackByLibibmad) { testing::check_encode_against_oracle(port_info_fields(), 22, 2000); }

TEST(PortInfo, ReadModifyWriteChangesOnlyTheFieldsTouched) {
  // A Set of PortInfo is built from the Get response: change LID, LMC and PortState, keep the rest.
  std::mt19937_64 rng(23);
  for (int i = 0; i < 500; ++i) {
    const SmpData got = testing::random_data(rng);
    PortInfo pi = PortInfo::decode(got);
    pi.lid = 0x1234;
    pi.lmc = 2;
    pi.port_state = 3;
    SmpData set{};
    pi.encode(set);
    SmpData expect = got;
    mad_set_field(expect.data(), 0, IB_PORT_LID_F, 0x1234);
    mad_set_field(expect.data(), 0, IB_PORT_LMC_F, 2);
    mad_set_field(expect.data(), 0, IB_PORT_STATE_F, 3);
    ASSERT_EQ(set, expect) << "iteration " << i;
  }
}

TEST(PortInfo, KnownBytesOfAnActive4xQdrPort) {
  // Hand-assembled from IBA table 149: LID 0x0012 at byte 16, state Active (4) in the low nibble of
  // byte 32 under LinkSpeedSupported 7, PhysState LinkUp (5) in the high nibble of byte 33, LMC 1.
  SmpData d{};
  d[16] = 0x00;
  d[17] = 0x12;
  d[32] = 0x74;
  d[33] = 0x52;
  d[34] = 0x01;
  const PortInfo pi = PortInfo::decode(d);
  EXPECT_EQ(pi.lid, 0x12);
  EXPECT_EQ(pi.port_state, 4);
  EXPECT_EQ(pi.link_speed_supported, 7);
  EXPECT_EQ(pi.port_physical_state, kPhysStateLinkUp);
  EXPECT_EQ(pi.link_down_default_state, 2);
  EXPECT_EQ(pi.lmc, 1);
}

TEST(PortInfo, XdrFieldsSitInByte56AsLibibmadPlacesThem) {
  // rdma-core 48+ (libibmad fields.c) puts LinkSpeedExtActive2 at bit 449 (2 bits), Supported2 at 451 (2)
  // and Enabled2 at 453 (3), bits counted from the payload's first MSB: byte 56, below its reserved bit 7.
  // Debian 12's libibmad 44 predates them, so the bytes are written out here by hand.
  SmpData d{};
  d[56] = 0x20 | 0x18 | 0x05;  // Active2 = 1, Supported2 = 3, Enabled2 = 5
  d[57] = 0xAB;                // LinkRoundTripLatency's first byte must not leak into the XDR fields
  PortInfo pi = PortInfo::decode(d);
  EXPECT_EQ(pi.link_speed_ext2_active, 1);
  EXPECT_EQ(pi.link_speed_ext2_supported, 3);
  EXPECT_EQ(pi.link_speed_ext2_enabled, 5);
  EXPECT_EQ(pi.link_round_trip_latency >> 16, 0xABu);
  pi.link_speed_ext2_enabled = 1;
  SmpData out{};
  pi.encode(out);
  EXPECT_EQ(out[56], 0x20 | 0x18 | 0x01);
  EXPECT_EQ(out[57], 0xAB);
  d[56] = 0x80;  // the reserved bit survives a read-modify-write
  PortInfo::decode(d).encode(out);
  EXPECT_EQ(out[56], 0x80);
}

TEST(PortInfo, AttributeModifierCarriesSmSupportsExtendedSpeedsInBit31) {
  static_assert(port_info_mod(7, false) == 7u);
  static_assert(port_info_mod(7, true) == 0x80000007u);
  static_assert(port_of_port_info_mod(0x80000024u) == 36);
  EXPECT_EQ(port_info_mod(254, true) & 0x7fffff00u, 0u);  // bits 8-30 stay reserved
}

}  // namespace
}  // namespace smd::mad::port_info_test
