// PortInfo codec: byte/bit offsets from IBA vol. 1, table 149 (14.2.5.6). Bit positions are counted
// from the most significant bit of the byte (see mad/codec/bits.h).
#include "mad/codec/port_info.h"

#include "mad/codec/bits.h"

namespace smd::mad {

namespace {

// One sub-byte field: byte offset, first bit below the MSB, width in bits.
struct BitField {
  std::size_t off;
  unsigned msb;
  unsigned width;
};

namespace off {
constexpr std::size_t kMKey = 0;
constexpr std::size_t kGidPrefix = 8;
constexpr std::size_t kLid = 16;
constexpr std::size_t kMasterSmLid = 18;
constexpr std::size_t kCapabilityMask = 20;
constexpr std::size_t kDiagCode = 24;
constexpr std::size_t kMKeyLeasePeriod = 26;
constexpr std::size_t kLocalPortNum = 28;
constexpr std::size_t kLinkWidthEnabled = 29;
constexpr std::size_t kLinkWidthSupported = 30;
constexpr std::size_t kLinkWidthActive = 31;
constexpr BitField kLinkSpeedSupported{32, 0, 4};
constexpr BitField kPortState{32, 4, 4};
constexpr BitField kPortPhysicalState{33, 0, 4};
constexpr BitField kLinkDownDefaultState{33, 4, 4};
constexpr BitField kMKeyProtectBits{34, 0, 2};  // bits 5..3 of byte 34 are reserved
constexpr BitField kLmc{34, 5, 3};
constexpr BitField kLinkSpeedActive{35, 0, 4};
constexpr BitField kLinkSpeedEnabled{35, 4, 4};
constexpr BitField kNeighborMtu{36, 0, 4};
constexpr BitField kMasterSmSl{36, 4, 4};
constexpr BitField kVlCap{37, 0, 4};
constexpr BitField kInitType{37, 4, 4};
constexpr std::size_t kVlHighLimit = 38;
constexpr std::size_t kVlArbitrationHighCap = 39;
constexpr std::size_t kVlArbitrationLowCap = 40;
constexpr BitField kInitTypeReply{41, 0, 4};
constexpr BitField kMtuCap{41, 4, 4};
constexpr BitField kVlStallCount{42, 0, 3};
constexpr BitField kHoqLife{42, 3, 5};
constexpr BitField kOperationalVls{43, 0, 4};
constexpr BitField kPartitionEnforcementInbound{43, 4, 1};
constexpr BitField kPartitionEnforcementOutbound{43, 5, 1};
constexpr BitField kFilterRawInbound{43, 6, 1};
constexpr BitField kFilterRawOutbound{43, 7, 1};
constexpr std::size_t kMKeyViolations = 44;
constexpr std::size_t kPKeyViolations = 46;
constexpr std::size_t kQKeyViolations = 48;
constexpr std::size_t kGuidCap = 50;
constexpr BitField kClientReregister{51, 0, 1};
constexpr BitField kMcastPkeyTrapSuppression{51, 1, 2};
constexpr BitField kSubnetTimeOut{51, 3, 5};
constexpr BitField kRespTimeValue{52, 3, 5};  // bits 7..5 of byte 52 are reserved
constexpr BitField kLocalPhyErrors{53, 0, 4};
constexpr BitField kOverrunErrors{53, 4, 4};
constexpr std::size_t kMaxCreditHint = 54;
// Byte 56: bit 7 reserved, then the XDR fields of IBA 1.7 (libibmad names them LinkSpeedExtActive2 etc.).
constexpr BitField kLinkSpeedExt2Active{56, 1, 2};
constexpr BitField kLinkSpeedExt2Supported{56, 3, 2};
constexpr BitField kLinkSpeedExt2Enabled{56, 5, 3};
constexpr std::size_t kLinkRoundTripLatency = 57;  // 24 bits
constexpr std::size_t kCapabilityMask2 = 60;
constexpr BitField kLinkSpeedExtActive{62, 0, 4};
constexpr BitField kLinkSpeedExtSupported{62, 4, 4};
constexpr BitField kLinkSpeedExtEnabled{63, 3, 5};  // bits 7..5 of byte 63 are reserved
}  // namespace off

std::uint8_t get(const std::uint8_t* p, BitField f) { return bits::get_bits(p, f.off, f.msb, f.width); }
void put(std::uint8_t* p, BitField f, unsigned v) { bits::put_bits(p, f.off, f.msb, f.width, v); }

}  // namespace

PortInfo PortInfo::decode(const SmpData& data) {
  const std::uint8_t* p = data.data();
  PortInfo i;
  i.m_key = bits::get64(p, off::kMKey);
  i.gid_prefix = bits::get64(p, off::kGidPrefix);
  i.lid = bits::get16(p, off::kLid);
  i.master_sm_lid = bits::get16(p, off::kMasterSmLid);
  i.capability_mask = bits::get32(p, off::kCapabilityMask);
  i.diag_code = bits::get16(p, off::kDiagCode);
  i.m_key_lease_period = bits::get16(p, off::kMKeyLeasePeriod);
  i.local_port_num = bits::get8(p, off::kLocalPortNum);
  i.link_width_enabled = bits::get8(p, off::kLinkWidthEnabled);
  i.link_width_supported = bits::get8(p, off::kLinkWidthSupported);
  i.link_width_active = bits::get8(p, off::kLinkWidthActive);
  i.link_speed_supported = get(p, off::kLinkSpeedSupported);
  i.port_state = get(p, off::kPortState);
  i.port_physical_state = get(p, off::kPortPhysicalState);
  i.link_down_default_state = get(p, off::kLinkDownDefaultState);
  i.m_key_protect_bits = get(p, off::kMKeyProtectBits);
  i.lmc = get(p, off::kLmc);
  i.link_speed_active = get(p, off::kLinkSpeedActive);
  i.link_speed_enabled = get(p, off::kLinkSpeedEnabled);
  i.neighbor_mtu = get(p, off::kNeighborMtu);
  i.master_sm_sl = get(p, off::kMasterSmSl);
  i.vl_cap = get(p, off::kVlCap);
  i.init_type = get(p, off::kInitType);
  i.vl_high_limit = bits::get8(p, off::kVlHighLimit);
  i.vl_arbitration_high_cap = bits::get8(p, off::kVlArbitrationHighCap);
  i.vl_arbitration_low_cap = bits::get8(p, off::kVlArbitrationLowCap);
  i.init_type_reply = get(p, off::kInitTypeReply);
  i.mtu_cap = get(p, off::kMtuCap);
  i.vl_stall_count = get(p, off::kVlStallCount);
  i.hoq_life = get(p, off::kHoqLife);
  i.operational_vls = get(p, off::kOperationalVls);
  i.partition_enforcement_inbound = get(p, off::kPartitionEnforcementInbound) != 0;
  i.partition_enforcement_outbound = get(p, off::kPartitionEnforcementOutbound) != 0;
  i.filter_raw_inbound = get(p, off::kFilterRawInbound) != 0;
  i.filter_raw_outbound = get(p, off::kFilterRawOutbound) != 0;
  i.m_key_violations = bits::get16(p, off::kMKeyViolations);
  i.p_key_violations = bits::get16(p, off::kPKeyViolations);
  i.q_key_violations = bits::get16(p, off::kQKeyViolations);
  i.guid_cap = bits::get8(p, off::kGuidCap);
  i.client_reregister = get(p, off::kClientReregister) != 0;
  i.multicast_pkey_trap_suppression_enabled = get(p, off::kMcastPkeyTrapSuppression);
  i.subnet_timeout = get(p, off::kSubnetTimeOut);
  i.resp_time_value = get(p, off::kRespTimeValue);
  i.local_phy_errors = get(p, off::kLocalPhyErrors);
  i.overrun_errors = get(p, off::kOverrunErrors);
  i.max_credit_hint = bits::get16(p, off::kMaxCreditHint);
  i.link_speed_ext2_active = get(p, off::kLinkSpeedExt2Active);
  i.link_speed_ext2_supported = get(p, off::kLinkSpeedExt2Supported);
  i.link_speed_ext2_enabled = get(p, off::kLinkSpeedExt2Enabled);
  i.link_round_trip_latency = bits::get24(p, off::kLinkRoundTripLatency);
  i.capability_mask2 = bits::get16(p, off::kCapabilityMask2);
  i.link_speed_ext_active = get(p, off::kLinkSpeedExtActive);
  i.link_speed_ext_supported = get(p, off::kLinkSpeedExtSupported);
  i.link_speed_ext_enabled = get(p, off::kLinkSpeedExtEnabled);
  i.raw = data;
  return i;
}

void PortInfo::encode(SmpData& data) const {
  data = raw;
  std::uint8_t* p = data.data();
  bits::put64(p, off::kMKey, m_key);
  bits::put64(p, off::kGidPrefix, gid_prefix);
  bits::put16(p, off::kLid, lid);
  bits::put16(p, off::kMasterSmLid, master_sm_lid);
  bits::put32(p, off::kCapabilityMask, capability_mask);
  bits::put16(p, off::kDiagCode, diag_code);
  bits::put16(p, off::kMKeyLeasePeriod, m_key_lease_period);
  bits::put8(p, off::kLocalPortNum, local_port_num);
  bits::put8(p, off::kLinkWidthEnabled, link_width_enabled);
  bits::put8(p, off::kLinkWidthSupported, link_width_supported);
  bits::put8(p, off::kLinkWidthActive, link_width_active);
  put(p, off::kLinkSpeedSupported, link_speed_supported);
  put(p, off::kPortState, port_state);
  put(p, off::kPortPhysicalState, port_physical_state);
  put(p, off::kLinkDownDefaultState, link_down_default_state);
  put(p, off::kMKeyProtectBits, m_key_protect_bits);
  put(p, off::kLmc, lmc);
  put(p, off::kLinkSpeedActive, link_speed_active);
  put(p, off::kLinkSpeedEnabled, link_speed_enabled);
  put(p, off::kNeighborMtu, neighbor_mtu);
  put(p, off::kMasterSmSl, master_sm_sl);
  put(p, off::kVlCap, vl_cap);
  put(p, off::kInitType, init_type);
  bits::put8(p, off::kVlHighLimit, vl_high_limit);
  bits::put8(p, off::kVlArbitrationHighCap, vl_arbitration_high_cap);
  bits::put8(p, off::kVlArbitrationLowCap, vl_arbitration_low_cap);
  put(p, off::kInitTypeReply, init_type_reply);
  put(p, off::kMtuCap, mtu_cap);
  put(p, off::kVlStallCount, vl_stall_count);
  put(p, off::kHoqLife, hoq_life);
  put(p, off::kOperationalVls, operational_vls);
  put(p, off::kPartitionEnforcementInbound, partition_enforcement_inbound ? 1 : 0);
  put(p, off::kPartitionEnforcementOutbound, partition_enforcement_outbound ? 1 : 0);
  put(p, off::kFilterRawInbound, filter_raw_inbound ? 1 : 0);
  put(p, off::kFilterRawOutbound, filter_raw_outbound ? 1 : 0);
  bits::put16(p, off::kMKeyViolations, m_key_violations);
  bits::put16(p, off::kPKeyViolations, p_key_violations);
  bits::put16(p, off::kQKeyViolations, q_key_violations);
  bits::put8(p, off::kGuidCap, guid_cap);
  put(p, off::kClientReregister, client_reregister ? 1 : 0);
  put(p, off::kMcastPkeyTrapSuppression, multicast_pkey_trap_suppression_enabled);
  put(p, off::kSubnetTimeOut, subnet_timeout);
  put(p, off::kRespTimeValue, resp_time_value);
  put(p, off::kLocalPhyErrors, local_phy_errors);
  put(p, off::kOverrunErrors, overrun_errors);
  bits::put16(p, off::kMaxCreditHint, max_credit_hint);
  put(p, off::kLinkSpeedExt2Active, link_speed_ext2_active);
  put(p, off::kLinkSpeedExt2Supported, link_speed_ext2_supported);
  put(p, off::kLinkSpeedExt2Enabled, link_speed_ext2_enabled);
  bits::put24(p, off::kLinkRoundTripLatency, link_round_trip_latency);
  bits::put16(p, off::kCapabilityMask2, capability_mask2);
  put(p, off::kLinkSpeedExtActive, link_speed_ext_active);
  put(p, off::kLinkSpeedExtSupported, link_speed_ext_supported);
  put(p, off::kLinkSpeedExtEnabled, link_speed_ext_enabled);
}

}  // namespace smd::mad
