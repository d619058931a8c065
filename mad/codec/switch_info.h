// SwitchInfo attribute (0x0012, IBA vol. 1, 14.2.5.4): a switch's forwarding capabilities and state.
// The SM sets LinearFDBTop (highest LID programmed), LifeTimeValue and clears PortStateChange.
#pragma once

#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

struct SwitchInfo {
  std::uint16_t linear_fdb_cap = 0;     ///< LinearFDBCap: LFT entries supported (never write above it)
  std::uint16_t random_fdb_cap = 0;     ///< RandomFDBCap
  std::uint16_t multicast_fdb_cap = 0;  ///< MulticastFDBCap
  std::uint16_t linear_fdb_top = 0;     ///< LinearFDBTop: highest valid LID in the LFT
  std::uint8_t default_port = 0;
  std::uint8_t default_multicast_primary_port = 0;
  std::uint8_t default_multicast_not_primary_port = 0;
  std::uint8_t life_time_value = 0;  ///< 5 bits: packet lifetime 4.096us * 2^value
  bool port_state_change = false;    ///< set by the switch on a link change; a Set of 1 clears it
  std::uint8_t optimized_sl_to_vl_mapping_programming = 0;  ///< 2 bits
  std::uint16_t lids_per_port = 0;
  std::uint16_t partition_enforcement_cap = 0;
  bool inbound_enforcement_cap = false;
  bool outbound_enforcement_cap = false;
  bool filter_raw_inbound_cap = false;
  bool filter_raw_outbound_cap = false;
  bool enhanced_port0 = false;          ///< port 0 is an enhanced management port (has its own PortInfo)
  std::uint16_t multicast_fdb_top = 0;  ///< MulticastFDBTop
  SmpData raw{};                        ///< payload as received: reserved bits survive encode()

  static SwitchInfo decode(const SmpData& data);
  void encode(SmpData& data) const;
};

}  // namespace smd::mad
