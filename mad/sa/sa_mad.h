// The SA MAD (IBA vol. 1, 15.2.1): the common MAD header, the RMPP header (13.6.2) and the SA header
// (SM_Key, AttributeOffset, ComponentMask), then up to 200 bytes of records in one MAD. A GetTable answer
// longer than that is one long MAD whose RMPP header says Active: the kernel's MAD layer cuts it into
// segments (the SA agent is registered with rmpp_version 1); ibsim's shim, which has no RMPP, keeps the
// first 256 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "mad/codec/smp.h"

namespace smd::mad::sa {

inline constexpr std::size_t kHeaderSize = 56;                    ///< MAD header 24 + RMPP header 12 + SA header 20
using mad::kMadSize;                                              // one MAD, 256 bytes (mad/codec/smp.h)
inline constexpr std::size_t kDataSize = kMadSize - kHeaderSize;  ///< 200 bytes of records per MAD
inline constexpr std::uint8_t kClassVersion = 2;

/// SA methods (IBA 15.2.2, table 203) and their responses (R bit 0x80 set).
namespace method {
inline constexpr std::uint8_t kGet = 0x01;
inline constexpr std::uint8_t kSet = 0x02;
inline constexpr std::uint8_t kReport = 0x06;
inline constexpr std::uint8_t kGetTable = 0x12;
inline constexpr std::uint8_t kGetTraceTable = 0x13;
inline constexpr std::uint8_t kGetMulti = 0x14;
inline constexpr std::uint8_t kDelete = 0x15;
inline constexpr std::uint8_t kGetResp = 0x81;
inline constexpr std::uint8_t kReportResp = 0x86;
inline constexpr std::uint8_t kGetTableResp = 0x92;
inline constexpr std::uint8_t kGetMultiResp = 0x94;
inline constexpr std::uint8_t kDeleteResp = 0x95;
inline constexpr std::uint8_t kResponseBit = 0x80;
}  // namespace method

/// SA attribute IDs (IBA 15.2.5, table 205). They overlap SMP IDs with other meanings (0x17, 0x18).
namespace attr {
inline constexpr std::uint16_t kClassPortInfo = 0x0001;
inline constexpr std::uint16_t kNotice = 0x0002;
inline constexpr std::uint16_t kInformInfo = 0x0003;
inline constexpr std::uint16_t kNodeRecord = 0x0011;
inline constexpr std::uint16_t kPortInfoRecord = 0x0012;
inline constexpr std::uint16_t kSl2VlTableRecord = 0x0013;
inline constexpr std::uint16_t kSwitchInfoRecord = 0x0014;
inline constexpr std::uint16_t kLftRecord = 0x0015;
inline constexpr std::uint16_t kMftRecord = 0x0017;
inline constexpr std::uint16_t kSmInfoRecord = 0x0018;
inline constexpr std::uint16_t kLinkRecord = 0x0020;
inline constexpr std::uint16_t kGuidInfoRecord = 0x0030;
inline constexpr std::uint16_t kServiceRecord = 0x0031;
inline constexpr std::uint16_t kPKeyTableRecord = 0x0033;
inline constexpr std::uint16_t kPathRecord = 0x0035;
inline constexpr std::uint16_t kVlArbTableRecord = 0x0036;
inline constexpr std::uint16_t kMcMemberRecord = 0x0038;
inline constexpr std::uint16_t kTraceRecord = 0x0039;
inline constexpr std::uint16_t kMultiPathRecord = 0x003A;
inline constexpr std::uint16_t kInformInfoRecord = 0x00F3;
}  // namespace attr

/// MAD status: the common bits (IBA 13.4.7, table 114) and the SA class codes in bits 15:8 (15.2.1.1).
namespace status {
inline constexpr std::uint16_t kOk = 0x0000;
inline constexpr std::uint16_t kBadVersion = 0x0004;             ///< class version not supported
inline constexpr std::uint16_t kMethodUnsupported = 0x0008;      ///< method not supported
inline constexpr std::uint16_t kMethodAttrUnsupported = 0x000C;  ///< method/attribute combination
inline constexpr std::uint16_t kInvalidField = 0x001C;           ///< an attribute field is invalid
inline constexpr std::uint16_t kNoResources = 0x0100;
inline constexpr std::uint16_t kReqInvalid = 0x0200;
inline constexpr std::uint16_t kNoRecords = 0x0300;
inline constexpr std::uint16_t kTooManyRecords = 0x0400;
inline constexpr std::uint16_t kInvalidGid = 0x0500;
inline constexpr std::uint16_t kInsufficientComponents = 0x0600;
inline constexpr std::uint16_t kDenied = 0x0700;
}  // namespace status

/// "no-records", "too-many-records", ... for logs and metrics labels; "0x....": any other value.
const char* status_name(std::uint16_t status);

/// RMPP header (IBA 13.6.2.1), bytes 24..35 of the MAD.
struct RmppHeader {
  std::uint8_t version = 0;    ///< 1 when RMPP is in use, 0 otherwise
  std::uint8_t type = 0;       ///< 1 DATA, 2 ACK, 3 STOP, 4 ABORT
  std::uint8_t resp_time = 0;  ///< RRespTime, 5 bits
  std::uint8_t flags = 0;      ///< 3 bits: 1 Active, 2 First, 4 Last
  std::uint8_t status = 0;
  std::uint32_t segment_number = 0;
  std::uint32_t payload_length = 0;  ///< DATA: bytes of SA header + records in the whole transfer

  static constexpr std::uint8_t kTypeData = 1;
  static constexpr std::uint8_t kFlagActive = 1;
  static constexpr std::uint8_t kFlagFirst = 2;
  static constexpr std::uint8_t kFlagLast = 4;
};

/// The 56 header bytes of an SA MAD.
struct SaHeader {
  std::uint8_t base_version = 1;
  std::uint8_t mgmt_class = 0x03;
  std::uint8_t class_version = kClassVersion;
  std::uint8_t method = 0;
  std::uint16_t status = 0;
  std::uint16_t class_specific = 0;
  std::uint64_t tid = 0;
  std::uint16_t attr_id = 0;
  std::uint32_t attr_mod = 0;
  RmppHeader rmpp;
  std::uint64_t sm_key = 0;
  std::uint16_t attr_offset = 0;  ///< record stride in 8-byte words (IBA 15.2.1.1)
  std::uint64_t comp_mask = 0;    ///< ComponentMask: bit n selects the record's field n

  /// Read the header of a MAD of `mad.size()` bytes. nullopt when it is shorter than kHeaderSize; every
  /// other bit pattern decodes (the caller judges class, version and method).
  static std::optional<SaHeader> decode(std::span<const std::uint8_t> mad);
  /// Write the 56 header bytes at the start of `mad` (at least kHeaderSize bytes).
  void encode(std::span<std::uint8_t> mad) const;
};

/// AttributeOffset of a record of `size` bytes: its size in 8-byte words, rounded up (IBA 15.2.1.1).
constexpr std::uint16_t attr_offset_of(std::size_t size) { return static_cast<std::uint16_t>((size + 7) / 8); }

}  // namespace smd::mad::sa
