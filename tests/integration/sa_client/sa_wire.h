// sa_wire: the Subnet Administration wire layouts that sa_client speaks, written from the IBA layouts
// (IBA vol. 1, 13.4 and 15.2; /work/shared/SA-NOTES.md section 6). Plain byte arrays, big-endian fields,
// no dependency on any smd library: sa_client is a witness independent of the code under test.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sa_client {

inline constexpr std::size_t kMadSize = 256;      // one MAD, no RMPP under ibsim
inline constexpr std::size_t kSaDataOffset = 56;  // SA data starts after the SA header
inline constexpr std::size_t kSaDataSize = kMadSize - kSaDataOffset;

inline constexpr uint8_t kClassSa = 0x03;
inline constexpr uint8_t kSaClassVersion = 2;

// SA methods (IBA 15.2.2) and the response bit.
inline constexpr uint8_t kMethodGet = 0x01;
inline constexpr uint8_t kMethodSet = 0x02;
inline constexpr uint8_t kMethodGetResp = 0x81;
inline constexpr uint8_t kMethodReport = 0x06;
inline constexpr uint8_t kMethodReportResp = 0x86;
inline constexpr uint8_t kMethodGetTable = 0x12;
inline constexpr uint8_t kMethodDelete = 0x15;
inline constexpr uint8_t kResponseBit = 0x80;

// SA attributes used here.
inline constexpr uint16_t kAttrClassPortInfo = 0x0001;
inline constexpr uint16_t kAttrNotice = 0x0002;
inline constexpr uint16_t kAttrInformInfo = 0x0003;
inline constexpr uint16_t kAttrServiceRecord = 0x0031;
inline constexpr uint16_t kAttrPathRecord = 0x0035;
inline constexpr uint16_t kAttrMcMemberRecord = 0x0038;

// PathRecord ComponentMask bits (IBA 15.2.5.16).
inline constexpr uint64_t kPrDgid = 1ULL << 2;
inline constexpr uint64_t kPrSgid = 1ULL << 3;
inline constexpr uint64_t kPrDlid = 1ULL << 4;
inline constexpr uint64_t kPrSlid = 1ULL << 5;
inline constexpr uint64_t kPrNumbPath = 1ULL << 12;

// ServiceRecord ComponentMask bits (IBA 15.2.5.14).
inline constexpr uint64_t kSrId = 1ULL << 0;
inline constexpr uint64_t kSrGid = 1ULL << 1;
inline constexpr uint64_t kSrPkey = 1ULL << 2;
inline constexpr uint64_t kSrLease = 1ULL << 4;
inline constexpr uint64_t kSrName = 1ULL << 6;

using Mad = std::array<uint8_t, kMadSize>;
using Gid = std::array<uint8_t, 16>;

// Big-endian field access on a byte span.
uint64_t get_be(std::span<const uint8_t> b, std::size_t off, std::size_t len);
void put_be(std::span<uint8_t> b, std::size_t off, std::size_t len, uint64_t v);

// A GID from a subnet prefix and a port GUID (both host order).
Gid make_gid(uint64_t prefix, uint64_t guid);
// "fe80::2:c903:1:2" style text (inet_ntop).
std::string gid_text(std::span<const uint8_t> gid);
// Lower-case hex of bytes, no separators.
std::string hex(std::span<const uint8_t> b);
// Bytes from hex text (spaces and an optional 0x allowed); nullopt when malformed.
std::optional<std::vector<uint8_t>> parse_hex(const std::string& text);

// The fields of an SA MAD header (common MAD header, RMPP header, SA header).
struct SaHeader {
  uint8_t base_version = 1;
  uint8_t mgmt_class = kClassSa;
  uint8_t class_version = kSaClassVersion;
  uint8_t method = 0;
  uint16_t status = 0;
  uint64_t tid = 0;
  uint16_t attr_id = 0;
  uint32_t attr_mod = 0;
  uint8_t rmpp_version = 0, rmpp_type = 0, rmpp_resp_time = 0, rmpp_flags = 0, rmpp_status = 0;
  uint32_t rmpp_segment = 0, rmpp_payload = 0;
  uint64_t sm_key = 0;
  uint16_t attr_offset = 0;
  uint64_t comp_mask = 0;
};

// An SA request MAD: header fields and record bytes at offset 56.
Mad build_sa_mad(const SaHeader& h, std::span<const uint8_t> data);
SaHeader parse_sa_header(std::span<const uint8_t> mad);

// A decoded PathRecord (IBA 15.2.5.16, 64 bytes).
struct PathRecord {
  uint64_t service_id = 0;
  Gid dgid{}, sgid{};
  uint16_t dlid = 0, slid = 0;
  bool raw_traffic = false;
  uint32_t flow_label = 0;
  uint8_t hop_limit = 0, tclass = 0;
  bool reversible = false;
  uint8_t numb_path = 0;
  uint16_t pkey = 0, qos_class = 0;
  uint8_t sl = 0;
  uint8_t mtu_selector = 0, mtu = 0, rate_selector = 0, rate = 0, pkt_life_selector = 0, pkt_life = 0;
  uint8_t preference = 0;
};
inline constexpr std::size_t kPathRecordSize = 64;
PathRecord decode_path_record(std::span<const uint8_t> rec);
// A PathRecord request record: either GIDs or LIDs set, NumbPath 1.
std::array<uint8_t, kPathRecordSize> encode_path_query(const Gid& sgid, const Gid& dgid, uint16_t slid, uint16_t dlid);

// MCMemberRecord (IBA 15.2.5.17, 53 bytes used, AttributeOffset 7) and its ComponentMask bits.
inline constexpr std::size_t kMcMemberRecordSize = 56;
inline constexpr uint64_t kMcmMgid = 1ULL << 0;
inline constexpr uint64_t kMcmPortGid = 1ULL << 1;
inline constexpr uint64_t kMcmQkey = 1ULL << 2;
inline constexpr uint64_t kMcmTclass = 1ULL << 6;
inline constexpr uint64_t kMcmPkey = 1ULL << 7;
inline constexpr uint64_t kMcmSl = 1ULL << 12;
inline constexpr uint64_t kMcmFlowLabel = 1ULL << 13;
inline constexpr uint64_t kMcmJoinState = 1ULL << 16;
struct McMemberRecord {
  Gid mgid{}, port_gid{};
  uint32_t qkey = 0;
  uint16_t mlid = 0;
  uint8_t mtu = 0, tclass = 0;  // mtu/rate/life: the whole byte, selector in bits 7:6
  uint16_t pkey = 0;
  uint8_t rate = 0, pkt_life = 0, sl = 0;
  uint32_t flow_label = 0;
  uint8_t hop_limit = 0, scope = 0, join_state = 0;
  bool proxy_join = false;
};
std::array<uint8_t, kMcMemberRecordSize> encode_mcmember_record(const McMemberRecord& m);
McMemberRecord decode_mcmember_record(std::span<const uint8_t> rec);

// ServiceRecord (IBA 15.2.5.14, 176 bytes).
inline constexpr std::size_t kServiceRecordSize = 176;
struct ServiceRecord {
  uint64_t id = 0;
  Gid gid{};
  uint16_t pkey = 0;
  uint32_t lease = 0;
  std::string name;
};
std::array<uint8_t, kServiceRecordSize> encode_service_record(const ServiceRecord& sr);
ServiceRecord decode_service_record(std::span<const uint8_t> rec);

// InformInfo (IBA 13.4.8.3, 36 bytes) for a generic-trap subscription.
inline constexpr std::size_t kInformInfoSize = 36;
struct InformInfo {
  Gid gid{};
  uint16_t lid_begin = 0xFFFF, lid_end = 0;
  bool is_generic = true, subscribe = true;
  uint16_t type = 0xFFFF;  // all types
  uint16_t trap_number = 0;
  uint32_t qpn = 1;
  uint8_t resp_time = 18;
  uint32_t producer_type = 0xFFFFFF;  // all producers
};
std::array<uint8_t, kInformInfoSize> encode_inform_info(const InformInfo& ii);
InformInfo decode_inform_info(std::span<const uint8_t> rec);

// Notice (IBA 13.4.8.2, 80 bytes): the fields a Report carries.
struct Notice {
  bool is_generic = false;
  uint8_t type = 0;
  uint32_t producer_type = 0;
  uint16_t trap_number = 0, issuer_lid = 0;
  uint16_t toggle_count = 0;
  std::array<uint8_t, 54> details{};
  Gid issuer_gid{};
};
Notice decode_notice(std::span<const uint8_t> rec);

}  // namespace sa_client
