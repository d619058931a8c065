// Performance Management MADs (IBA vol. 1, 16.1): GMPs of management class 0x04 that read and clear a
// port's PortCounters (16.1.3.5) and PortCountersExtended (16.1.4.11), and the PMA's ClassPortInfo
// (13.4.8.1, CapabilityMask bits of 16.1.2) that says whether the extended counters exist. Bytes only:
// no libibumad, no I/O. Layouts are checked field by field against libibmad's IB_PC_*, IB_PC_EXT_* and
// IB_CPI_* tables in tests/unit/mad/codec/pma_test.cpp.
//
// A PMA MAD: the 24-byte common MAD header (13.4.2: BaseVersion 1, MgmtClass 0x04, ClassVersion 1, Method,
// Status, ClassSpecific, TID, AttributeID, AttributeModifier), 40 reserved bytes, then 192 bytes of
// attribute data at offset 64.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "mad/codec/smp.h"

namespace smd::mad {

/// PMA attribute IDs (IBA 16.1.2, table 231).
inline constexpr std::uint16_t kAttrPmaClassPortInfo = 0x0001, kAttrPortCounters = 0x0012,
                               kAttrPortCountersExtended = 0x001D;
/// Where the attribute data starts, and how long it is.
inline constexpr std::size_t kPmaDataOffset = 64;
inline constexpr std::size_t kPmaDataSize = kMadSize - kPmaDataOffset;
/// PMA class version (IBA 16.1.1).
inline constexpr std::uint8_t kPmaClassVersion = 1;
/// PortSelect meaning every port of the node (only when ClassPortInfo has AllPortSelect).
inline constexpr std::uint8_t kAllPortSelect = 0xFF;

/// PMA ClassPortInfo CapabilityMask bits (IBA 16.1.2, table 236; libibmad's IB_PM_*).
namespace pma_cap {
inline constexpr std::uint16_t kAllPortSelect = 1u << 8;                   ///< PortSelect 0xFF accepted
inline constexpr std::uint16_t kExtendedWidthSupported = 1u << 9;          ///< PortCountersExtended, every field
inline constexpr std::uint16_t kExtendedWidthNoIetf = 1u << 10;            ///< ... without the unicast/multicast ones
inline constexpr std::uint16_t kSamplesOnly = 1u << 11;                    ///< PortCounters not supported
inline constexpr std::uint16_t kPortCountersXmitWaitSupported = 1u << 12;  ///< PortXmitWait is counted
}  // namespace pma_cap

/// PortCounters CounterSelect bits (IBA 16.1.3.5, table 247): in a Set, which counters to clear (and in
/// a Get answered with AllPortSelect, which to sum). CounterSelect2 bit 0 selects PortXmitWait.
namespace counter_select {
inline constexpr std::uint16_t kSymbolError = 1u << 0, kLinkErrorRecovery = 1u << 1, kLinkDowned = 1u << 2,
                               kPortRcvErrors = 1u << 3, kPortRcvRemotePhysicalErrors = 1u << 4,
                               kPortRcvSwitchRelayErrors = 1u << 5, kPortXmitDiscards = 1u << 6,
                               kPortXmitConstraintErrors = 1u << 7, kPortRcvConstraintErrors = 1u << 8,
                               kLocalLinkIntegrityErrors = 1u << 9, kExcessiveBufferOverrunErrors = 1u << 10,
                               kVL15Dropped = 1u << 11, kPortXmitData = 1u << 12, kPortRcvData = 1u << 13,
                               kPortXmitPkts = 1u << 14, kPortRcvPkts = 1u << 15;
inline constexpr std::uint16_t kAll = 0xFFFF;
inline constexpr std::uint8_t kSelect2PortXmitWait = 1u << 0;
}  // namespace counter_select

/// A PMA request (Get 0x01 or Set 0x02) for `attr`, transaction ID `tid`, AttributeModifier 0, attribute
/// data copied from `data` (at most 192 bytes; the rest zero; longer input is cut at 192).
std::array<std::uint8_t, kMadSize> make_pma_request(std::uint8_t method, std::uint16_t attr, std::uint64_t tid,
                                                    std::span<const std::uint8_t> data = {});

/// The fields of a PMA response header the PerfMgr needs.
struct PmaResponse {
  std::uint8_t method;   ///< 0x81 GetResp
  std::uint16_t status;  ///< MAD status (13.4.7); non-zero = the PMA refused
  std::uint64_t tid;
  std::uint16_t attr;
  std::span<const std::uint8_t> data;  ///< the 192 attribute bytes at offset 64, inside `mad`
};
/// Errors (nullopt): not class 0x04, or not a response (Method bit 0x80 clear). `data` borrows `mad`.
std::optional<PmaResponse> parse_pma_response(std::span<const std::uint8_t, kMadSize> mad);

/// PortCounters (IBA 16.1.3.5, table 247): PortSelect, CounterSelect (16 bits), CounterSelect2 (8 bits) and
/// the counters. Error counters stop at all ones; the data counters count 4-octet words.
struct PortCounters {
  static constexpr std::size_t kSize = 44;  ///< bytes of attribute data the fields cover
  std::uint8_t port_select = 0;
  std::uint16_t counter_select = 0;
  std::uint8_t counter_select2 = 0;
  std::uint16_t symbol_error = 0, port_rcv_errors = 0, port_rcv_remote_physical_errors = 0,
                port_rcv_switch_relay_errors = 0, port_xmit_discards = 0, vl15_dropped = 0, qp1_dropped = 0;
  std::uint8_t link_error_recovery = 0, link_downed = 0, port_xmit_constraint_errors = 0,
               port_rcv_constraint_errors = 0;
  std::uint8_t local_link_integrity_errors = 0;      ///< 4 bits
  std::uint8_t excessive_buffer_overrun_errors = 0;  ///< 4 bits
  /// Data in 4-octet words as on the wire; packets.
  std::uint32_t port_xmit_data = 0, port_rcv_data = 0, port_xmit_pkts = 0, port_rcv_pkts = 0, port_xmit_wait = 0;

  /// `data` = the attribute bytes (at least kSize; shorter input decodes as all zero).
  static PortCounters decode(std::span<const std::uint8_t> data);
  /// Write every field into `data` (at least kSize bytes, else nothing is written); reserved bits kept.
  void encode(std::span<std::uint8_t> data) const;
};

/// PortCountersExtended (IBA 16.1.4.11, table 260): 64-bit data and packet counters that wrap.
/// XmitData/RcvData count 4-octet words.
struct PortCountersExtended {
  static constexpr std::size_t kSize = 72;
  std::uint8_t port_select = 0;
  std::uint16_t counter_select = 0;
  std::uint64_t port_xmit_data = 0, port_rcv_data = 0, port_xmit_pkts = 0, port_rcv_pkts = 0,
                port_unicast_xmit_pkts = 0, port_unicast_rcv_pkts = 0, port_multicast_xmit_pkts = 0,
                port_multicast_rcv_pkts = 0;

  /// As PortCounters::decode / encode, with kSize = 72.
  static PortCountersExtended decode(std::span<const std::uint8_t> data);
  void encode(std::span<std::uint8_t> data) const;
};

/// The PMA's ClassPortInfo (IBA 13.4.8.1, the generic layout): only the fields the PerfMgr reads.
struct PmaClassPortInfo {
  static constexpr std::size_t kSize = 8;
  std::uint8_t base_version = 0;
  std::uint8_t class_version = 0;
  std::uint16_t capability_mask = 0;   ///< pma_cap bits
  std::uint32_t capability_mask2 = 0;  ///< 27 bits
  std::uint8_t resp_time_value = 0;    ///< 5 bits: the PMA answers within 4.096 us * 2^value
  // Redirection (IBA 13.4.8.1, 13.5.3.3): where a PMA that answers with the redirect status wants its MADs.
  std::array<std::uint8_t, 16> redirect_gid{};  ///< RedirectGID (all zero = none)
  std::uint8_t redirect_tc = 0;
  std::uint8_t redirect_sl = 0;     ///< 4 bits
  std::uint32_t redirect_fl = 0;    ///< 20 bits
  std::uint16_t redirect_lid = 0;   ///< 0 = the LID the MAD was sent to
  std::uint16_t redirect_pkey = 0;  ///< RedirectP_Key
  std::uint32_t redirect_qp = 0;    ///< 24 bits
  std::uint32_t redirect_qkey = 0;  ///< RedirectQ_Key
  /// Bytes the redirect fields need; shorter input leaves them zero.
  static constexpr std::size_t kRedirectSize = 40;
  /// Shorter input than kSize decodes as all zero.
  static PmaClassPortInfo decode(std::span<const std::uint8_t> data);
};

/// MAD Status bit 1 (IBA 13.4.7, table 112): the class agent asks to be reached elsewhere; the data is its
/// ClassPortInfo naming where.
inline constexpr std::uint16_t kMadStatusRedirect = 0x0002;

/// ClassPortInfo:CapabilityMask (bytes 2-3 of the attribute data); 0 when `data` is shorter.
std::uint16_t pma_capability_mask(std::span<const std::uint8_t> data);

}  // namespace smd::mad
