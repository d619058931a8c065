// GMP request and response headers: see gmp_header.h.
#include "mad/codec/gmp_header.h"

#include "mad/codec/mad_header_fields.h"

namespace smd::mad {

namespace {
constexpr std::uint8_t kBaseVersion = 1;     // IBA 13.4.2: the only MAD base version
constexpr std::uint8_t kResponseBit = 0x80;  // Method's R bit
}  // namespace

std::array<std::uint8_t, kMadSize> make_gmp_request(const GmpHeader& h) {
  std::array<std::uint8_t, kMadSize> mad{};
  write_field<mad_header::kBaseVersion>(mad.data(), kBaseVersion);
  encode_fields(mad.data(), h, kCommonMadHeader<GmpHeader>);
  return mad;
}

std::optional<GmpHeader> read_gmp_response(std::span<const std::uint8_t, kMadSize> mad, std::uint8_t mgmt_class) {
  GmpHeader h;
  decode_fields(mad.data(), h, kCommonMadHeader<GmpHeader>);
  if (h.mgmt_class != mgmt_class || (h.method & kResponseBit) == 0) return std::nullopt;
  h.status = static_cast<std::uint16_t>(read_field<mad_header::kStatus>(mad.data()));
  return h;
}

}  // namespace smd::mad
