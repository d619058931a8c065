// Subnet Management Packets (IBA vol. 1, 14.2.1): the 256-byte MAD with management class 0x81
// (directed route) or 0x01 (LID routed) and a 64-byte attribute payload.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "mad/codec/dr_path.h"

namespace smd::mad {

inline constexpr std::size_t kMadSize = 256;
inline constexpr std::size_t kSmpDataSize = 64;
using SmpData = std::array<std::uint8_t, kSmpDataSize>;

/// Management classes (IBA 13.4.4).
inline constexpr std::uint8_t kClassSmiLid = 0x01;
inline constexpr std::uint8_t kClassSmiDirect = 0x81;
inline constexpr std::uint8_t kClassSubnAdm = 0x03;
inline constexpr std::uint8_t kClassPerfMgt = 0x04;

/// Methods (IBA 13.4.5).
enum class Method : std::uint8_t {
  kGet = 0x01,
  kSet = 0x02,
  kGetResp = 0x81,
  kTrap = 0x05,
  kTrapRepress = 0x07,
};

/// SMP attribute IDs (IBA 14.2.5, table 145).
namespace attr {
inline constexpr std::uint16_t kNotice = 0x0002;
inline constexpr std::uint16_t kNodeDescription = 0x0010;
inline constexpr std::uint16_t kNodeInfo = 0x0011;
inline constexpr std::uint16_t kSwitchInfo = 0x0012;
inline constexpr std::uint16_t kGuidInfo = 0x0014;
inline constexpr std::uint16_t kPortInfo = 0x0015;
inline constexpr std::uint16_t kPKeyTable = 0x0016;
inline constexpr std::uint16_t kSlToVlTable = 0x0017;
inline constexpr std::uint16_t kVlArbTable = 0x0018;
inline constexpr std::uint16_t kLinearForwardingTable = 0x0019;
inline constexpr std::uint16_t kMulticastForwardingTable = 0x001B;
inline constexpr std::uint16_t kSmInfo = 0x0020;
}  // namespace attr

/// Permissive LID for DrSLID/DrDLID: pure directed route (ibsim drops mixed DR).
inline constexpr std::uint16_t kPermissiveLid = 0xFFFF;

/// What the SM asks for. Directed route when `dlid` is unset, LID routed (class 0x01) otherwise.
struct SmpRequest {
  DrPath path;
  std::optional<std::uint16_t> dlid;  ///< set: LID-routed SMP to this LID
  Method method = Method::kGet;
  std::uint16_t attr_id = 0;
  std::uint32_t attr_mod = 0;
  std::uint64_t m_key = 0;
  SmpData data{};
};

/// A directed-route Get of attribute `attr_id` with modifier `attr_mod` (a port number for PortInfo).
inline SmpRequest smp_get(const DrPath& path, std::uint16_t attr_id, std::uint32_t attr_mod = 0) {
  SmpRequest req;
  req.path = path;
  req.method = Method::kGet;
  req.attr_id = attr_id;
  req.attr_mod = attr_mod;
  return req;
}

/// The decoded fields of a received SMP that callers need.
struct SmpHeader {
  std::uint8_t mgmt_class = 0;
  std::uint8_t class_version = 0;
  std::uint8_t method = 0;
  std::uint16_t status = 0;  ///< MAD status with the D bit masked off (DR: bit 15 is the direction bit)
  bool direction_inbound = false;
  std::uint8_t hop_pointer = 0;
  std::uint8_t hop_count = 0;
  std::uint64_t tid = 0;
  std::uint16_t attr_id = 0;
  std::uint32_t attr_mod = 0;
  std::uint64_t m_key = 0;
  std::uint16_t dr_slid = 0;
  std::uint16_t dr_dlid = 0;
};

/// Encode `req` with transaction ID `tid` into a 256-byte MAD (network byte order).
void encode_smp(const SmpRequest& req, std::uint64_t tid, std::span<std::uint8_t, kMadSize> out);

/// Decode the header of a received 256-byte MAD. Errors (nullopt): not an SMP class (0x01 or 0x81), or a
/// directed-route SMP whose HopCount exceeds 63 (IBA 14.2.2: the path arrays hold 63 hops).
std::optional<SmpHeader> decode_smp_header(std::span<const std::uint8_t, kMadSize> mad);

/// The 64-byte attribute payload of an SMP (offset 64 for DR, 64 for LID routed; IBA 14.2.1.1/2).
SmpData smp_data(std::span<const std::uint8_t, kMadSize> mad);

/// Low 32 bits of a TID: the part that survives the trip (the kernel, and the ibsim shim, own bits 32..63).
inline constexpr std::uint32_t tid_low(std::uint64_t tid) { return static_cast<std::uint32_t>(tid); }

/// Read the 64-bit TID of any MAD (bytes 8..15, IBA 13.4.2) without decoding the rest.
std::uint64_t mad_tid(std::span<const std::uint8_t, kMadSize> mad);

/// Build the GetResp to a received SMP request (Get/Set from another SM, IBA 14.2.1): the request's
/// header and paths are kept, Method becomes GetResp, Status is `status`, and for a directed-route SMP
/// the D bit is set so the SMI walks the return path. `out` may alias `request`.
void make_smp_response(std::span<const std::uint8_t, kMadSize> request, std::uint16_t status, const SmpData& data,
                       std::span<std::uint8_t, kMadSize> out);

}  // namespace smd::mad
