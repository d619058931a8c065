// SMP header codec (IBA vol. 1, 13.4.2 common MAD header; 14.2.1.1 LID-routed and 14.2.1.2 directed-route
// SMP layout). All multi-byte fields are big-endian.
#include "mad/codec/smp.h"

#include <algorithm>

#include "mad/codec/bits.h"
#include "mad/codec/mad_header_fields.h"

namespace smd::mad {

namespace {
// The common header's offsets are mad_header:: (mad_header_fields.h); these are the SMP's own (IBA 14.2.1).
namespace off {
constexpr std::size_t kHopPointer = 6;
constexpr std::size_t kHopCount = 7;
constexpr std::size_t kMKey = 24;
constexpr std::size_t kDrSlid = 32;
constexpr std::size_t kDrDlid = 34;
constexpr std::size_t kData = 64;
constexpr std::size_t kInitialPath = 128;
}  // namespace off

constexpr std::uint8_t kSmpBaseVersion = 1;
constexpr std::uint8_t kSmpClassVersion = 1;
constexpr std::uint16_t kDirectionBit = 0x8000;
}  // namespace

void encode_smp(const SmpRequest& req, std::uint64_t tid, std::span<std::uint8_t, kMadSize> out) {
  std::uint8_t* p = out.data();
  std::fill(out.begin(), out.end(), std::uint8_t{0});
  const bool directed = !req.dlid.has_value();
  SmpHeader h;
  h.mgmt_class = directed ? kClassSmiDirect : kClassSmiLid;
  h.class_version = kSmpClassVersion;
  h.method = static_cast<std::uint8_t>(req.method);
  h.tid = tid;
  h.attr_id = req.attr_id;
  h.attr_mod = req.attr_mod;
  write_field<mad_header::kBaseVersion>(p, kSmpBaseVersion);
  encode_fields(p, h, kCommonMadHeader<SmpHeader>);
  bits::put64(p, off::kMKey, req.m_key);
  std::copy(req.data.begin(), req.data.end(), p + off::kData);
  if (directed) {
    // Pure directed route: D=0, hop pointer 0, both DR LIDs permissive (ibsim drops anything else).
    bits::put8(p, off::kHopCount, static_cast<std::uint8_t>(req.path.hop_count()));
    bits::put16(p, off::kDrSlid, kPermissiveLid);
    bits::put16(p, off::kDrDlid, kPermissiveLid);
    const auto& path = req.path.initial_path();
    std::copy(path.begin(), path.end(), p + off::kInitialPath);
  }
}

std::optional<SmpHeader> decode_smp_header(std::span<const std::uint8_t, kMadSize> mad) {
  const std::uint8_t* p = mad.data();
  SmpHeader h;
  decode_fields(p, h, kCommonMadHeader<SmpHeader>);
  if (h.mgmt_class != kClassSmiDirect && h.mgmt_class != kClassSmiLid) return std::nullopt;
  const bool directed = h.mgmt_class == kClassSmiDirect;
  const auto status = static_cast<std::uint16_t>(read_field<mad_header::kStatus>(p));
  h.status = directed ? static_cast<std::uint16_t>(status & ~kDirectionBit) : status;
  h.direction_inbound = directed && (status & kDirectionBit) != 0;
  h.m_key = bits::get64(p, off::kMKey);
  if (directed) {
    h.hop_pointer = bits::get8(p, off::kHopPointer);
    h.hop_count = bits::get8(p, off::kHopCount);
    h.dr_slid = bits::get16(p, off::kDrSlid);
    h.dr_dlid = bits::get16(p, off::kDrDlid);
    // InitialPath/ReturnPath have 64 entries, index 0 unused: a longer route cannot exist (IBA 14.2.2).
    if (h.hop_count > kMaxHops) return std::nullopt;
  }
  return h;
}

SmpData smp_data(std::span<const std::uint8_t, kMadSize> mad) {
  SmpData d;
  std::copy_n(mad.data() + off::kData, d.size(), d.begin());
  return d;
}

std::uint64_t mad_tid(std::span<const std::uint8_t, kMadSize> mad) { return read_field<mad_header::kTid>(mad.data()); }

void make_smp_response(std::span<const std::uint8_t, kMadSize> request, std::uint16_t status, const SmpData& data,
                       std::span<std::uint8_t, kMadSize> out) {
  if (out.data() != request.data()) std::copy(request.begin(), request.end(), out.begin());
  std::uint8_t* p = out.data();
  const bool directed = read_field<mad_header::kMgmtClass>(p) == kClassSmiDirect;
  write_field<mad_header::kMethod>(p, static_cast<std::uint8_t>(Method::kGetResp));
  write_field<mad_header::kStatus>(p,
              directed ? static_cast<std::uint16_t>((status & ~kDirectionBit) | kDirectionBit) : status);
  std::copy(data.begin(), data.end(), p + off::kData);
}

}  // namespace smd::mad
