// The policy's `congestion_control:` section as data (config/smd.yaml documents every key): what the
// congestion-control manager (smd/cc, IBA Annex A10) writes to every switch and CA. Plain values in the
// units of the attributes they go into; mad/codec/cc.h turns them into bytes. Defaults are OpenSM 3.3.23's.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace smd {

/// SwitchCongestionSetting (A10.4.3.6) as every switch gets it: OpenSM's cc_sw_cong_setting_* options.
struct CcSwitchSettings {
  std::uint32_t control_map = 0;  ///< bit 0 victim mask, 1 credit mask, 2 threshold+packet size, 3 CS, 4 marking rate
  std::array<std::uint8_t, 32> victim_mask{};        ///< 256 bits, big-endian as on the wire (byte 31 bit 0 = port 0)
  std::array<std::uint8_t, 32> credit_mask{};        ///< as victim_mask
  std::uint8_t threshold = 0;                        ///< 0..15
  std::uint8_t packet_size = 0;                      ///< credits
  std::uint8_t credit_starvation_threshold = 0;      ///< 0..15
  std::uint16_t credit_starvation_return_delay = 0;  ///< shift (2 bits) << 14 | multiplier (14 bits)
  std::uint16_t marking_rate = 0;
};

/// One SL's CACongestionSetting entry (A10.4.3.8).
struct CcCaEntry {
  std::uint16_t ccti_timer = 0;
  std::uint8_t ccti_increase = 0;
  std::uint8_t trigger_threshold = 0;
  std::uint8_t ccti_min = 0;
};

/// CACongestionSetting as every CA port gets it: OpenSM's cc_ca_cong_setting_* options.
struct CcCaSettings {
  std::uint16_t port_control = 0;  ///< bit 0: SL/port based (1) or QP based (0)
  std::uint16_t control_map = 0;   ///< bit N: SL N's entry is valid
  std::array<CcCaEntry, 16> entries{};
};

/// congestion_control: the whole section.
struct CongestionControlPolicy {
  bool enabled = false;            ///< congestion_control.enabled (OpenSM congestion_control)
  std::uint64_t cc_key = 0;        ///< congestion_control.cc_key: the key every CC MAD carries (not written to agents)
  unsigned max_outstanding = 500;  ///< congestion_control.max_outstanding: CC MADs in flight, 1..1000
  CcSwitchSettings sw;             ///< congestion_control.switch
  CcCaSettings ca;                 ///< congestion_control.ca
  /// congestion_control.cct: the CongestionControlTable, entry i = shift << 14 | multiplier, at most 128
  /// entries (two blocks of 64). Empty: no CCT is written (OpenSM's cc_cct unset).
  std::vector<std::uint16_t> cct;
};

}  // namespace smd
