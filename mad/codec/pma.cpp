// PMA MAD codecs: see pma.h. Offsets are bytes of the attribute data (IBA 16.1.3.5 table 247, 16.1.4.11
// table 260, 13.4.8.1 table 126).
#include "mad/codec/pma.h"

#include <algorithm>

#include "mad/codec/attribute_codec.h"
#include "mad/codec/bits.h"
#include "mad/codec/gmp_header.h"

namespace smd::mad {

using namespace bits;

std::array<std::uint8_t, kMadSize> make_pma_request(std::uint8_t method, std::uint16_t attr, std::uint64_t tid,
                                                    std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, kMadSize> mad = make_gmp_request(
      {.mgmt_class = kClassPerfMgt, .class_version = kPmaClassVersion, .method = method, .tid = tid, .attr_id = attr});
  const std::size_t n = std::min(data.size(), kPmaDataSize);
  std::copy_n(data.begin(), n, mad.begin() + kPmaDataOffset);
  return mad;
}

std::optional<PmaResponse> parse_pma_response(std::span<const std::uint8_t, kMadSize> mad) {
  const std::optional<GmpHeader> h = read_gmp_response(mad, kClassPerfMgt);
  if (!h) return std::nullopt;
  return PmaResponse{h->method, h->status, h->tid, h->attr_id, mad.subspan(kPmaDataOffset)};
}

namespace {
constexpr FieldTable kPortCountersFields{
    bind<&PortCounters::port_select, bytes_at(1, 1)>,
    bind<&PortCounters::counter_select, bytes_at(2, 2)>,
    bind<&PortCounters::symbol_error, bytes_at(4, 2)>,
    bind<&PortCounters::link_error_recovery, bytes_at(6, 1)>,
    bind<&PortCounters::link_downed, bytes_at(7, 1)>,
    bind<&PortCounters::port_rcv_errors, bytes_at(8, 2)>,
    bind<&PortCounters::port_rcv_remote_physical_errors, bytes_at(10, 2)>,
    bind<&PortCounters::port_rcv_switch_relay_errors, bytes_at(12, 2)>,
    bind<&PortCounters::port_xmit_discards, bytes_at(14, 2)>,
    bind<&PortCounters::port_xmit_constraint_errors, bytes_at(16, 1)>,
    bind<&PortCounters::port_rcv_constraint_errors, bytes_at(17, 1)>,
    bind<&PortCounters::counter_select2, bytes_at(18, 1)>,
    bind<&PortCounters::local_link_integrity_errors, at(19, 0, 4)>,
    bind<&PortCounters::excessive_buffer_overrun_errors, at(19, 4, 4)>,
    bind<&PortCounters::qp1_dropped, bytes_at(20, 2)>,
    bind<&PortCounters::vl15_dropped, bytes_at(22, 2)>,
    bind<&PortCounters::port_xmit_data, bytes_at(24, 4)>,
    bind<&PortCounters::port_rcv_data, bytes_at(28, 4)>,
    bind<&PortCounters::port_xmit_pkts, bytes_at(32, 4)>,
    bind<&PortCounters::port_rcv_pkts, bytes_at(36, 4)>,
    bind<&PortCounters::port_xmit_wait, bytes_at(40, 4)>,
};

constexpr FieldTable kPortCountersExtendedFields{
    bind<&PortCountersExtended::port_select, bytes_at(1, 1)>,
    bind<&PortCountersExtended::counter_select, bytes_at(2, 2)>,
    bind<&PortCountersExtended::port_xmit_data, bytes_at(8, 8)>,
    bind<&PortCountersExtended::port_rcv_data, bytes_at(16, 8)>,
    bind<&PortCountersExtended::port_xmit_pkts, bytes_at(24, 8)>,
    bind<&PortCountersExtended::port_rcv_pkts, bytes_at(32, 8)>,
    bind<&PortCountersExtended::port_unicast_xmit_pkts, bytes_at(40, 8)>,
    bind<&PortCountersExtended::port_unicast_rcv_pkts, bytes_at(48, 8)>,
    bind<&PortCountersExtended::port_multicast_xmit_pkts, bytes_at(56, 8)>,
    bind<&PortCountersExtended::port_multicast_rcv_pkts, bytes_at(64, 8)>,
};

// The generic ClassPortInfo (IBA 13.4.8.1 table 126) up to RespTimeValue, then its redirect fields.
constexpr FieldTable kClassPortInfoFields{
    bind<&PmaClassPortInfo::base_version, bytes_at(0, 1)>,    bind<&PmaClassPortInfo::class_version, bytes_at(1, 1)>,
    bind<&PmaClassPortInfo::capability_mask, bytes_at(2, 2)>, bind<&PmaClassPortInfo::capability_mask2, at(4, 0, 27)>,
    bind<&PmaClassPortInfo::resp_time_value, at(7, 3, 5)>,
};
constexpr FieldTable kClassPortInfoRedirectFields{
    bind<&PmaClassPortInfo::redirect_tc, bytes_at(24, 1)>,
    bind<&PmaClassPortInfo::redirect_sl, at(25, 0, 4)>,
    bind<&PmaClassPortInfo::redirect_fl, at(25, 4, 20)>,
    bind<&PmaClassPortInfo::redirect_lid, bytes_at(28, 2)>,
    bind<&PmaClassPortInfo::redirect_pkey, bytes_at(30, 2)>,
    bind<&PmaClassPortInfo::redirect_qp, bytes_at(33, 3)>,  // byte 32 is reserved
    bind<&PmaClassPortInfo::redirect_qkey, bytes_at(36, 4)>,
};
}  // namespace

PortCounters PortCounters::decode(std::span<const std::uint8_t> data) {
  return decode_sized<PortCounters>(data, kSize, kPortCountersFields);
}

void PortCounters::encode(std::span<std::uint8_t> data) const { encode_sized(*this, data, kSize, kPortCountersFields); }

PortCountersExtended PortCountersExtended::decode(std::span<const std::uint8_t> data) {
  return decode_sized<PortCountersExtended>(data, kSize, kPortCountersExtendedFields);
}

void PortCountersExtended::encode(std::span<std::uint8_t> data) const {
  encode_sized(*this, data, kSize, kPortCountersExtendedFields);
}

PmaClassPortInfo PmaClassPortInfo::decode(std::span<const std::uint8_t> data) {
  PmaClassPortInfo c;
  if (data.size() < kSize) return c;
  decode_fields(data.data(), c, kClassPortInfoFields);
  if (data.size() < kRedirectSize) return c;
  std::copy_n(data.begin() + 8, 16, c.redirect_gid.begin());
  decode_fields(data.data(), c, kClassPortInfoRedirectFields);
  return c;
}

std::uint16_t pma_capability_mask(std::span<const std::uint8_t> data) {
  return data.size() < 4 ? 0 : get16(data.data(), 2);
}

}  // namespace smd::mad
