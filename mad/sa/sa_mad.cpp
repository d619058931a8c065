// SA MAD header codec: byte offsets from IBA vol. 1, 13.4.3 (MAD header), 13.6.2.1 (RMPP), 15.2.1.1 (SA).
#include "mad/sa/sa_mad.h"

#include <algorithm>

#include "mad/codec/mad_header_fields.h"

namespace smd::mad::sa {

namespace {
// The SA header after the common MAD header: ClassSpecific, the RMPP header (IBA 13.6.2.1, its own table,
// at byte 24) and the SA fields (IBA 15.2.1.1).
constexpr FieldTable kSaFields{
    bind<&SaHeader::base_version, mad_header::kBaseVersion>,
    bind<&SaHeader::status, mad_header::kStatus>,
    bind<&SaHeader::class_specific, bytes_at(6, 2)>,
    bind<&SaHeader::sm_key, bytes_at(36, 8)>,
    bind<&SaHeader::attr_offset, bytes_at(44, 2)>,
    bind<&SaHeader::comp_mask, bytes_at(48, 8)>,
};
constexpr std::size_t kRmppAt = 24;
constexpr FieldTable kRmppFields{
    bind<&RmppHeader::version, bytes_at(0, 1)>,   bind<&RmppHeader::type, bytes_at(1, 1)>,
    bind<&RmppHeader::resp_time, at(2, 0, 5)>,    bind<&RmppHeader::flags, at(2, 5, 3)>,
    bind<&RmppHeader::status, bytes_at(3, 1)>,    bind<&RmppHeader::segment_number, bytes_at(4, 4)>,
    bind<&RmppHeader::payload_length, bytes_at(8, 4)>,
};
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
  decode_fields(p, h, kCommonMadHeader<SaHeader>);
  decode_fields(p, h, kSaFields);
  decode_fields(p + kRmppAt, h.rmpp, kRmppFields);
  return h;
}

void SaHeader::encode(std::span<std::uint8_t> mad) const {
  // Every header byte is written: the reserved ones (18..19, 46..47) as zero.
  std::fill_n(mad.begin(), kHeaderSize, std::uint8_t{0});
  std::uint8_t* p = mad.data();
  encode_fields(p, *this, kCommonMadHeader<SaHeader>);
  encode_fields(p, *this, kSaFields);
  encode_fields(p + kRmppAt, rmpp, kRmppFields);
}

}  // namespace smd::mad::sa
