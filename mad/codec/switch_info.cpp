// SwitchInfo codec: byte/bit offsets from IBA vol. 1, table 147 (14.2.5.4).
#include "mad/codec/switch_info.h"

#include "mad/codec/bits.h"

namespace smd::mad {

namespace {
namespace off {
constexpr std::size_t kLinearFdbCap = 0;
constexpr std::size_t kRandomFdbCap = 2;
constexpr std::size_t kMulticastFdbCap = 4;
constexpr std::size_t kLinearFdbTop = 6;
constexpr std::size_t kDefaultPort = 8;
constexpr std::size_t kDefaultMcastPrimary = 9;
constexpr std::size_t kDefaultMcastNotPrimary = 10;
constexpr std::size_t kLifeTimeByte = 11;  // LifeTimeValue 7..3, PortStateChange 2, OptimizedSL2VL 1..0
constexpr std::size_t kLidsPerPort = 12;
constexpr std::size_t kPartitionEnforcementCap = 14;
constexpr std::size_t kEnforcementByte = 16;  // In/Out enforcement, FilterRaw In/Out, EnhancedPort0, 3 rsvd
constexpr std::size_t kMulticastFdbTop = 18;
}  // namespace off
}  // namespace

SwitchInfo SwitchInfo::decode(const SmpData& data) {
  const std::uint8_t* p = data.data();
  SwitchInfo s;
  s.linear_fdb_cap = bits::get16(p, off::kLinearFdbCap);
  s.random_fdb_cap = bits::get16(p, off::kRandomFdbCap);
  s.multicast_fdb_cap = bits::get16(p, off::kMulticastFdbCap);
  s.linear_fdb_top = bits::get16(p, off::kLinearFdbTop);
  s.default_port = bits::get8(p, off::kDefaultPort);
  s.default_multicast_primary_port = bits::get8(p, off::kDefaultMcastPrimary);
  s.default_multicast_not_primary_port = bits::get8(p, off::kDefaultMcastNotPrimary);
  s.life_time_value = bits::get_bits(p, off::kLifeTimeByte, 0, 5);
  s.port_state_change = bits::get_bits(p, off::kLifeTimeByte, 5, 1) != 0;
  s.optimized_sl_to_vl_mapping_programming = bits::get_bits(p, off::kLifeTimeByte, 6, 2);
  s.lids_per_port = bits::get16(p, off::kLidsPerPort);
  s.partition_enforcement_cap = bits::get16(p, off::kPartitionEnforcementCap);
  s.inbound_enforcement_cap = bits::get_bits(p, off::kEnforcementByte, 0, 1) != 0;
  s.outbound_enforcement_cap = bits::get_bits(p, off::kEnforcementByte, 1, 1) != 0;
  s.filter_raw_inbound_cap = bits::get_bits(p, off::kEnforcementByte, 2, 1) != 0;
  s.filter_raw_outbound_cap = bits::get_bits(p, off::kEnforcementByte, 3, 1) != 0;
  s.enhanced_port0 = bits::get_bits(p, off::kEnforcementByte, 4, 1) != 0;
  s.multicast_fdb_top = bits::get16(p, off::kMulticastFdbTop);
  s.raw = data;
  return s;
}

void SwitchInfo::encode(SmpData& data) const {
  data = raw;
  std::uint8_t* p = data.data();
  bits::put16(p, off::kLinearFdbCap, linear_fdb_cap);
  bits::put16(p, off::kRandomFdbCap, random_fdb_cap);
  bits::put16(p, off::kMulticastFdbCap, multicast_fdb_cap);
  bits::put16(p, off::kLinearFdbTop, linear_fdb_top);
  bits::put8(p, off::kDefaultPort, default_port);
  bits::put8(p, off::kDefaultMcastPrimary, default_multicast_primary_port);
  bits::put8(p, off::kDefaultMcastNotPrimary, default_multicast_not_primary_port);
  bits::put_bits(p, off::kLifeTimeByte, 0, 5, life_time_value);
  bits::put_bits(p, off::kLifeTimeByte, 5, 1, port_state_change ? 1 : 0);
  bits::put_bits(p, off::kLifeTimeByte, 6, 2, optimized_sl_to_vl_mapping_programming);
  bits::put16(p, off::kLidsPerPort, lids_per_port);
  bits::put16(p, off::kPartitionEnforcementCap, partition_enforcement_cap);
  bits::put_bits(p, off::kEnforcementByte, 0, 1, inbound_enforcement_cap ? 1 : 0);
  bits::put_bits(p, off::kEnforcementByte, 1, 1, outbound_enforcement_cap ? 1 : 0);
  bits::put_bits(p, off::kEnforcementByte, 2, 1, filter_raw_inbound_cap ? 1 : 0);
  bits::put_bits(p, off::kEnforcementByte, 3, 1, filter_raw_outbound_cap ? 1 : 0);
  bits::put_bits(p, off::kEnforcementByte, 4, 1, enhanced_port0 ? 1 : 0);
  bits::put16(p, off::kMulticastFdbTop, multicast_fdb_top);
}

}  // namespace smd::mad
