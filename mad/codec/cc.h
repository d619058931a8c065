// Congestion Control MADs (IBA vol. 1, Annex A10): GMPs of management class 0x21, class version 2, sent by
// the congestion-control manager (CCM) to the CC agent of every switch and CA on QP1. Bytes only: no
// libibumad, no I/O. Layouts are checked against libibmad's IB_CC_* field tables and hand-computed bytes in
// tests/unit/mad/codec/cc_test.cpp.
//
// A CC MAD (A10.4.1): the 24-byte common MAD header, the 8-byte CC_Key at offset 24 (the agent drops a
// Set whose key does not match its own, A10.2.2), 32 reserved bytes, then 192 bytes of attribute data at
// offset 64.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "mad/codec/smp.h"

namespace smd::mad {

/// Management class and its version (A10.4.1).
inline constexpr std::uint8_t kClassCongestionControl = 0x21;
inline constexpr std::uint8_t kCcClassVersion = 2;
/// Where CC_Key and the attribute data sit in the MAD, and how long the data is.
inline constexpr std::size_t kCcKeyOffset = 24;
inline constexpr std::size_t kCcDataOffset = 64;
inline constexpr std::size_t kCcDataSize = kMadSize - kCcDataOffset;

/// CC attribute IDs (A10.4.3, table A10-5).
namespace cc_attr {
inline constexpr std::uint16_t kClassPortInfo = 0x0001, kCongestionInfo = 0x0011, kCongestionKeyInfo = 0x0012,
                               kSwitchCongestionSetting = 0x0014, kSwitchPortCongestionSetting = 0x0015,
                               kCaCongestionSetting = 0x0016, kCongestionControlTable = 0x0017;
}  // namespace cc_attr

/// The 192 attribute bytes of a CC MAD.
using CcData = std::array<std::uint8_t, kCcDataSize>;

/// A CC request (Get 0x01 or Set 0x02) for `attr` with modifier `mod`, transaction ID `tid`, key `cc_key`,
/// and attribute data `data` (the whole 192 bytes).
std::array<std::uint8_t, kMadSize> make_cc_request(std::uint8_t method, std::uint16_t attr, std::uint32_t mod,
                                                   std::uint64_t tid, std::uint64_t cc_key, const CcData& data);

/// The fields of a CC response the manager reads.
struct CcResponse {
  std::uint8_t method;   ///< 0x81 GetResp
  std::uint16_t status;  ///< MAD status (13.4.7); non-zero = the agent refused
  std::uint64_t tid;
  std::uint16_t attr;
  std::uint32_t mod;
  std::span<const std::uint8_t> data;  ///< the 192 attribute bytes at offset 64, inside the MAD
};
/// Errors (nullopt): not class 0x21, or not a response (Method bit 0x80 clear). `data` borrows `mad`.
std::optional<CcResponse> parse_cc_response(std::span<const std::uint8_t, kMadSize> mad);

/// CongestionInfo (A10.4.3.4): what the node's CC agent supports. Read only.
struct CongestionInfo {
  std::uint16_t congestion_info = 0;   ///< bit 0: CreditStarvation supported (switches)
  std::uint8_t control_table_cap = 0;  ///< CA: blocks of 64 CCT entries the agent holds (0: no CCT)
  /// `data` shorter than 3 bytes decodes as all zero.
  static CongestionInfo decode(std::span<const std::uint8_t> data);
};

/// SwitchCongestionSetting (A10.4.3.6): how a switch marks FECN. 76 bytes; port masks are 256 bits,
/// bit N = port N, stored as on the wire (byte 0 holds ports 255..248, byte 31 ports 7..0).
struct SwitchCongestionSetting {
  static constexpr std::size_t kSize = 76;
  std::uint32_t control_map = 0;  ///< which of the following the agent takes (bit 0 victim mask .. bit 4 marking rate)
  std::array<std::uint8_t, 32> victim_mask{};
  std::array<std::uint8_t, 32> credit_mask{};
  std::uint8_t threshold = 0;         ///< 4 bits: 0 none .. 15 most aggressive marking
  std::uint8_t packet_size = 0;       ///< credits (64 bytes): smaller packets are not marked
  std::uint8_t cs_threshold = 0;      ///< 4 bits: credit starvation threshold
  std::uint16_t cs_return_delay = 0;  ///< shift (2 bits) : multiplier (14 bits), as a CCT entry
  std::uint16_t marking_rate = 0;     ///< mean packets between markings
  static SwitchCongestionSetting decode(std::span<const std::uint8_t> data);
  /// Writes the fields into `data` (at least kSize bytes, else nothing); reserved bits kept.
  void encode(std::span<std::uint8_t> data) const;
};

/// One element of SwitchPortCongestionSetting (A10.4.3.7): 32 per block, 4 bytes each; the block is the
/// attribute modifier (ports 32*block .. 32*block+31).
struct SwitchPortCongestionElement {
  std::uint8_t valid = 0;         ///< 1 bit
  std::uint8_t control_type = 0;  ///< 1 bit: 0 congestion, 1 credit starvation
  std::uint8_t threshold = 0;     ///< 4 bits
  std::uint8_t packet_size = 0;
  std::uint16_t cong_parm_marking_rate = 0;
  /// Element `index` (0..31) of a block; out-of-range or short data decodes as zero / writes nothing.
  static SwitchPortCongestionElement decode(std::span<const std::uint8_t> data, std::size_t index);
  void encode(std::span<std::uint8_t> data, std::size_t index) const;
};

/// One SL's entry of CACongestionSetting (A10.4.3.8).
struct CaCongestionEntry {
  std::uint16_t ccti_timer = 0;    ///< 1.024 us units: each expiry lowers the CCTI by one
  std::uint8_t ccti_increase = 0;  ///< added to the CCTI per BECN
  std::uint8_t trigger_threshold = 0;
  std::uint8_t ccti_min = 0;
  bool operator==(const CaCongestionEntry&) const = default;
};

/// CACongestionSetting (A10.4.3.8): Port_Control, Control_Map (which SLs the agent takes) and one entry of
/// 8 bytes per SL 0..15 from byte 4. 132 bytes.
struct CaCongestionSetting {
  static constexpr std::size_t kSize = 132;
  std::uint16_t port_control = 0;  ///< bit 0: 1 = SL/port based, 0 = QP based
  std::uint16_t control_map = 0;   ///< bit N: the entry of SL N is valid
  std::array<CaCongestionEntry, 16> entries{};
  static CaCongestionSetting decode(std::span<const std::uint8_t> data);
  void encode(std::span<std::uint8_t> data) const;
};

/// A CCT entry (A10.4.3.9): the inter-packet delay a CCTI selects, a multiplier scaled by 2^shift; 16 bits.
struct CctEntry {
  std::uint8_t shift = 0;        ///< 2 bits
  std::uint16_t multiplier = 0;  ///< 14 bits
  bool operator==(const CctEntry&) const = default;
};

/// CongestionControlTable (A10.4.3.9): one block of 64 entries; the block is the attribute modifier (block
/// N holds CCT indexes 64N..64N+63). CCTI_Limit (the highest valid index) is in every block. 132 bytes.
struct CongestionControlTable {
  static constexpr std::size_t kSize = 132;
  static constexpr std::size_t kEntries = 64;
  std::uint16_t ccti_limit = 0;
  std::array<CctEntry, kEntries> entries{};
  static CongestionControlTable decode(std::span<const std::uint8_t> data);
  void encode(std::span<std::uint8_t> data) const;
};

/// CongestionKeyInfo (A10.4.3.5): the agent's CC_Key and its protection.
struct CongestionKeyInfo {
  std::uint64_t cc_key = 0;
  std::uint8_t protect_bit = 0;    ///< 1 bit
  std::uint16_t lease_period = 0;  ///< seconds
  std::uint16_t violations = 0;
  static CongestionKeyInfo decode(std::span<const std::uint8_t> data);
  void encode(std::span<std::uint8_t> data) const;
};

}  // namespace smd::mad
