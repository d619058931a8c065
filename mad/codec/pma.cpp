// PMA MAD codecs: see pma.h. Offsets are bytes of the attribute data (IBA 16.1.3.5 table 247, 16.1.4.11
// table 260, 13.4.8.1 table 126).
#include "mad/codec/pma.h"

#include <algorithm>

#include "mad/codec/bits.h"

namespace smd::mad {

using namespace bits;

std::array<std::uint8_t, kMadSize> make_pma_request(std::uint8_t method, std::uint16_t attr, std::uint64_t tid,
                                                    std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, kMadSize> mad{};
  std::uint8_t* m = mad.data();
  put8(m, 0, 1);  // BaseVersion
  put8(m, 1, kClassPerfMgt);
  put8(m, 2, kPmaClassVersion);
  put8(m, 3, method);
  put64(m, 8, tid);
  put16(m, 16, attr);
  const std::size_t n = std::min(data.size(), kPmaDataSize);
  std::copy_n(data.begin(), n, mad.begin() + kPmaDataOffset);
  return mad;
}

std::optional<PmaResponse> parse_pma_response(std::span<const std::uint8_t, kMadSize> mad) {
  const std::uint8_t* m = mad.data();
  if (get8(m, 1) != kClassPerfMgt || (get8(m, 3) & 0x80) == 0) return std::nullopt;
  return PmaResponse{get8(m, 3), get16(m, 4), get64(m, 8), get16(m, 16), mad.subspan(kPmaDataOffset)};
}

PortCounters PortCounters::decode(std::span<const std::uint8_t> data) {
  PortCounters c;
  if (data.size() < kSize) return c;
  const std::uint8_t* d = data.data();
  c.port_select = get8(d, 1);
  c.counter_select = get16(d, 2);
  c.symbol_error = get16(d, 4);
  c.link_error_recovery = get8(d, 6);
  c.link_downed = get8(d, 7);
  c.port_rcv_errors = get16(d, 8);
  c.port_rcv_remote_physical_errors = get16(d, 10);
  c.port_rcv_switch_relay_errors = get16(d, 12);
  c.port_xmit_discards = get16(d, 14);
  c.port_xmit_constraint_errors = get8(d, 16);
  c.port_rcv_constraint_errors = get8(d, 17);
  c.counter_select2 = get8(d, 18);
  c.local_link_integrity_errors = get_bits(d, 19, 0, 4);
  c.excessive_buffer_overrun_errors = get_bits(d, 19, 4, 4);
  c.qp1_dropped = get16(d, 20);
  c.vl15_dropped = get16(d, 22);
  c.port_xmit_data = get32(d, 24);
  c.port_rcv_data = get32(d, 28);
  c.port_xmit_pkts = get32(d, 32);
  c.port_rcv_pkts = get32(d, 36);
  c.port_xmit_wait = get32(d, 40);
  return c;
}

void PortCounters::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  std::uint8_t* d = data.data();
  put8(d, 1, port_select);
  put16(d, 2, counter_select);
  put16(d, 4, symbol_error);
  put8(d, 6, link_error_recovery);
  put8(d, 7, link_downed);
  put16(d, 8, port_rcv_errors);
  put16(d, 10, port_rcv_remote_physical_errors);
  put16(d, 12, port_rcv_switch_relay_errors);
  put16(d, 14, port_xmit_discards);
  put8(d, 16, port_xmit_constraint_errors);
  put8(d, 17, port_rcv_constraint_errors);
  put8(d, 18, counter_select2);
  put_bits(d, 19, 0, 4, local_link_integrity_errors);
  put_bits(d, 19, 4, 4, excessive_buffer_overrun_errors);
  put16(d, 20, qp1_dropped);
  put16(d, 22, vl15_dropped);
  put32(d, 24, port_xmit_data);
  put32(d, 28, port_rcv_data);
  put32(d, 32, port_xmit_pkts);
  put32(d, 36, port_rcv_pkts);
  put32(d, 40, port_xmit_wait);
}

PortCountersExtended PortCountersExtended::decode(std::span<const std::uint8_t> data) {
  PortCountersExtended c;
  if (data.size() < kSize) return c;
  const std::uint8_t* d = data.data();
  c.port_select = get8(d, 1);
  c.counter_select = get16(d, 2);
  c.port_xmit_data = get64(d, 8);
  c.port_rcv_data = get64(d, 16);
  c.port_xmit_pkts = get64(d, 24);
  c.port_rcv_pkts = get64(d, 32);
  c.port_unicast_xmit_pkts = get64(d, 40);
  c.port_unicast_rcv_pkts = get64(d, 48);
  c.port_multicast_xmit_pkts = get64(d, 56);
  c.port_multicast_rcv_pkts = get64(d, 64);
  return c;
}

void PortCountersExtended::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  std::uint8_t* d = data.data();
  put8(d, 1, port_select);
  put16(d, 2, counter_select);
  put64(d, 8, port_xmit_data);
  put64(d, 16, port_rcv_data);
  put64(d, 24, port_xmit_pkts);
  put64(d, 32, port_rcv_pkts);
  put64(d, 40, port_unicast_xmit_pkts);
  put64(d, 48, port_unicast_rcv_pkts);
  put64(d, 56, port_multicast_xmit_pkts);
  put64(d, 64, port_multicast_rcv_pkts);
}

PmaClassPortInfo PmaClassPortInfo::decode(std::span<const std::uint8_t> data) {
  PmaClassPortInfo c;
  if (data.size() < kSize) return c;
  const std::uint8_t* d = data.data();
  c.base_version = get8(d, 0);
  c.class_version = get8(d, 1);
  c.capability_mask = get16(d, 2);
  // Bytes 4-7: CapabilityMask2 (27 bits) then RespTimeValue (5 bits).
  const std::uint32_t word = get32(d, 4);
  c.capability_mask2 = word >> 5;
  c.resp_time_value = static_cast<std::uint8_t>(word & 0x1F);
  if (data.size() < kRedirectSize) return c;
  std::copy_n(d + 8, 16, c.redirect_gid.begin());
  const std::uint32_t flow = get32(d, 24);  // RedirectTC (8) | RedirectSL (4) | RedirectFL (20)
  c.redirect_tc = static_cast<std::uint8_t>(flow >> 24);
  c.redirect_sl = static_cast<std::uint8_t>((flow >> 20) & 0xF);
  c.redirect_fl = flow & 0xFFFFF;
  c.redirect_lid = get16(d, 28);
  c.redirect_pkey = get16(d, 30);
  c.redirect_qp = get32(d, 32) & 0xFFFFFF;  // the top byte is reserved
  c.redirect_qkey = get32(d, 36);
  return c;
}

std::uint16_t pma_capability_mask(std::span<const std::uint8_t> data) {
  return data.size() < 4 ? 0 : get16(data.data(), 2);
}

}  // namespace smd::mad
