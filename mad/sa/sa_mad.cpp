// SA MAD header codec: byte offsets from IBA vol. 1, 13.4.3 (MAD header), 13.6.2.1 (RMPP), 15.2.1.1 (SA).
#include "mad/sa/sa_mad.h"

#include "mad/codec/bits.h"

namespace smd::mad::sa {

namespace {
namespace off {
constexpr std::size_t kBaseVersion = 0;
constexpr std::size_t kMgmtClass = 1;
constexpr std::size_t kClassVersion = 2;
constexpr std::size_t kMethod = 3;
constexpr std::size_t kStatus = 4;
constexpr std::size_t kClassSpecific = 6;
constexpr std::size_t kTid = 8;
constexpr std::size_t kAttrId = 16;
constexpr std::size_t kAttrMod = 20;
constexpr std::size_t kRmppVersion = 24;
constexpr std::size_t kRmppType = 25;
constexpr std::size_t kRmppTimeFlags = 26;  // RRespTime 7:3, flags 2:0
constexpr std::size_t kRmppStatus = 27;
constexpr std::size_t kRmppSegment = 28;
constexpr std::size_t kRmppLength = 32;
constexpr std::size_t kSmKey = 36;
constexpr std::size_t kAttrOffset = 44;
constexpr std::size_t kCompMask = 48;
}  // namespace off
}  // namespace

const char* status_name(std::uint16_t s) {
  switch (s) {
    case status::kOk: return "ok";
    case status::kBadVersion: return "bad-version";
    case status::kMethodUnsupported: return "method-unsupported";
    case status::kMethodAttrUnsupported: return "method-attr-unsupported";
    case status::kInvalidField: return "invalid-field";
    case status::kNoResources: return "no-resources";
    case status::kReqInvalid: return "req-invalid";
    case status::kNoRecords: return "no-records";
    case status::kTooManyRecords: return "too-many-records";
    case status::kInvalidGid: return "invalid-gid";
    case status::kInsufficientComponents: return "insufficient-components";
    case status::kDenied: return "denied";
    default: return "other";
  }
}

std::optional<SaHeader> SaHeader::decode(std::span<const std::uint8_t> mad) {
  if (mad.size() < kHeaderSize) return std::nullopt;
  const std::uint8_t* p = mad.data();
  SaHeader h;
  h.base_version = bits::get8(p, off::kBaseVersion);
  h.mgmt_class = bits::get8(p, off::kMgmtClass);
  h.class_version = bits::get8(p, off::kClassVersion);
  h.method = bits::get8(p, off::kMethod);
  h.status = bits::get16(p, off::kStatus);
  h.class_specific = bits::get16(p, off::kClassSpecific);
  h.tid = bits::get64(p, off::kTid);
  h.attr_id = bits::get16(p, off::kAttrId);
  h.attr_mod = bits::get32(p, off::kAttrMod);
  h.rmpp.version = bits::get8(p, off::kRmppVersion);
  h.rmpp.type = bits::get8(p, off::kRmppType);
  h.rmpp.resp_time = bits::get_bits(p, off::kRmppTimeFlags, 0, 5);
  h.rmpp.flags = bits::get_bits(p, off::kRmppTimeFlags, 5, 3);
  h.rmpp.status = bits::get8(p, off::kRmppStatus);
  h.rmpp.segment_number = bits::get32(p, off::kRmppSegment);
  h.rmpp.payload_length = bits::get32(p, off::kRmppLength);
  h.sm_key = bits::get64(p, off::kSmKey);
  h.attr_offset = bits::get16(p, off::kAttrOffset);
  h.comp_mask = bits::get64(p, off::kCompMask);
  return h;
}

void SaHeader::encode(std::span<std::uint8_t> mad) const {
  std::uint8_t* p = mad.data();
  bits::put8(p, off::kBaseVersion, base_version);
  bits::put8(p, off::kMgmtClass, mgmt_class);
  bits::put8(p, off::kClassVersion, class_version);
  bits::put8(p, off::kMethod, method);
  bits::put16(p, off::kStatus, status);
  bits::put16(p, off::kClassSpecific, class_specific);
  bits::put64(p, off::kTid, tid);
  bits::put16(p, off::kAttrId, attr_id);
  bits::put16(p, 18, 0);  // reserved
  bits::put32(p, off::kAttrMod, attr_mod);
  bits::put8(p, off::kRmppVersion, rmpp.version);
  bits::put8(p, off::kRmppType, rmpp.type);
  bits::put8(p, off::kRmppTimeFlags, 0);
  bits::put_bits(p, off::kRmppTimeFlags, 0, 5, rmpp.resp_time);
  bits::put_bits(p, off::kRmppTimeFlags, 5, 3, rmpp.flags);
  bits::put8(p, off::kRmppStatus, rmpp.status);
  bits::put32(p, off::kRmppSegment, rmpp.segment_number);
  bits::put32(p, off::kRmppLength, rmpp.payload_length);
  bits::put64(p, off::kSmKey, sm_key);
  bits::put16(p, off::kAttrOffset, attr_offset);
  bits::put16(p, 46, 0);  // reserved
  bits::put64(p, off::kCompMask, comp_mask);
}

}  // namespace smd::mad::sa
