// sa_wire: encoders and decoders for the SA layouts in sa_wire.h. Offsets are the IBA's byte offsets.
#include "tests/integration/sa_client/sa_wire.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace sa_client {

uint64_t get_be(std::span<const uint8_t> b, std::size_t off, std::size_t len) {
  uint64_t v = 0;
  for (std::size_t i = 0; i < len; ++i) v = (v << 8) | b[off + i];
  return v;
}

void put_be(std::span<uint8_t> b, std::size_t off, std::size_t len, uint64_t v) {
  for (std::size_t i = 0; i < len; ++i) b[off + len - 1 - i] = static_cast<uint8_t>(v >> (8 * i));
}

Gid make_gid(uint64_t prefix, uint64_t guid) {
  Gid g{};
  put_be(g, 0, 8, prefix);
  put_be(g, 8, 8, guid);
  return g;
}

std::string gid_text(std::span<const uint8_t> gid) {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, gid.data(), buf, sizeof buf);
  return buf;
}

std::string hex(std::span<const uint8_t> b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(b.size() * 2);
  for (uint8_t c : b) {
    s += kDigits[c >> 4];
    s += kDigits[c & 0xF];
  }
  return s;
}

std::optional<std::vector<uint8_t>> parse_hex(const std::string& text) {
  std::string digits;
  std::string_view t = text;
  if (t.starts_with("0x") || t.starts_with("0X")) t.remove_prefix(2);
  for (char c : t) {
    if (std::isspace(static_cast<unsigned char>(c)) || c == ':') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c))) return std::nullopt;
    digits += c;
  }
  if (digits.size() % 2 != 0) return std::nullopt;
  std::vector<uint8_t> out(digits.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<uint8_t>(std::stoul(digits.substr(2 * i, 2), nullptr, 16));
  return out;
}

Mad build_sa_mad(const SaHeader& h, std::span<const uint8_t> data) {
  Mad m{};
  m[0] = h.base_version;
  m[1] = h.mgmt_class;
  m[2] = h.class_version;
  m[3] = h.method;
  put_be(m, 4, 2, h.status);
  put_be(m, 8, 8, h.tid);
  put_be(m, 16, 2, h.attr_id);
  put_be(m, 20, 4, h.attr_mod);
  m[24] = h.rmpp_version;
  m[25] = h.rmpp_type;
  m[26] = static_cast<uint8_t>((h.rmpp_resp_time << 3) | (h.rmpp_flags & 0x7));
  m[27] = h.rmpp_status;
  put_be(m, 28, 4, h.rmpp_segment);
  put_be(m, 32, 4, h.rmpp_payload);
  put_be(m, 36, 8, h.sm_key);
  put_be(m, 44, 2, h.attr_offset);
  put_be(m, 48, 8, h.comp_mask);
  std::copy_n(data.begin(), std::min(data.size(), kSaDataSize), m.begin() + kSaDataOffset);
  return m;
}

SaHeader parse_sa_header(std::span<const uint8_t> m) {
  SaHeader h;
  h.base_version = m[0];
  h.mgmt_class = m[1];
  h.class_version = m[2];
  h.method = m[3];
  h.status = static_cast<uint16_t>(get_be(m, 4, 2));
  h.tid = get_be(m, 8, 8);
  h.attr_id = static_cast<uint16_t>(get_be(m, 16, 2));
  h.attr_mod = static_cast<uint32_t>(get_be(m, 20, 4));
  h.rmpp_version = m[24];
  h.rmpp_type = m[25];
  h.rmpp_resp_time = m[26] >> 3;
  h.rmpp_flags = m[26] & 0x7;
  h.rmpp_status = m[27];
  h.rmpp_segment = static_cast<uint32_t>(get_be(m, 28, 4));
  h.rmpp_payload = static_cast<uint32_t>(get_be(m, 32, 4));
  h.sm_key = get_be(m, 36, 8);
  h.attr_offset = static_cast<uint16_t>(get_be(m, 44, 2));
  h.comp_mask = get_be(m, 48, 8);
  return h;
}

PathRecord decode_path_record(std::span<const uint8_t> r) {
  PathRecord p;
  p.service_id = get_be(r, 0, 8);
  std::copy_n(r.begin() + 8, 16, p.dgid.begin());
  std::copy_n(r.begin() + 24, 16, p.sgid.begin());
  p.dlid = static_cast<uint16_t>(get_be(r, 40, 2));
  p.slid = static_cast<uint16_t>(get_be(r, 42, 2));
  const uint32_t w = static_cast<uint32_t>(get_be(r, 44, 4));
  p.raw_traffic = (w >> 31) & 1;
  p.flow_label = (w >> 8) & 0xFFFFF;
  p.hop_limit = w & 0xFF;
  p.tclass = r[48];
  p.reversible = r[49] >> 7;
  p.numb_path = r[49] & 0x7F;
  p.pkey = static_cast<uint16_t>(get_be(r, 50, 2));
  const uint16_t qs = static_cast<uint16_t>(get_be(r, 52, 2));
  p.qos_class = qs >> 4;
  p.sl = qs & 0xF;
  p.mtu_selector = r[54] >> 6;
  p.mtu = r[54] & 0x3F;
  p.rate_selector = r[55] >> 6;
  p.rate = r[55] & 0x3F;
  p.pkt_life_selector = r[56] >> 6;
  p.pkt_life = r[56] & 0x3F;
  p.preference = r[57];
  return p;
}

std::array<uint8_t, kPathRecordSize> encode_path_query(const Gid& sgid, const Gid& dgid, uint16_t slid, uint16_t dlid) {
  std::array<uint8_t, kPathRecordSize> r{};
  std::copy(dgid.begin(), dgid.end(), r.begin() + 8);
  std::copy(sgid.begin(), sgid.end(), r.begin() + 24);
  put_be(r, 40, 2, dlid);
  put_be(r, 42, 2, slid);
  r[49] = 1;  // NumbPath 1, Reversible 0
  return r;
}

std::array<uint8_t, kMcMemberRecordSize> encode_mcmember_record(const McMemberRecord& m) {
  std::array<uint8_t, kMcMemberRecordSize> r{};
  std::copy(m.mgid.begin(), m.mgid.end(), r.begin());
  std::copy(m.port_gid.begin(), m.port_gid.end(), r.begin() + 16);
  put_be(r, 32, 4, m.qkey);
  put_be(r, 36, 2, m.mlid);
  r[38] = m.mtu;
  r[39] = m.tclass;
  put_be(r, 40, 2, m.pkey);
  r[42] = m.rate;
  r[43] = m.pkt_life;
  put_be(r, 44, 4, static_cast<uint64_t>(m.sl & 0xF) << 28 | (m.flow_label & 0xFFFFF) << 8 | m.hop_limit);
  r[48] = static_cast<uint8_t>((m.scope & 0xF) << 4 | (m.join_state & 0xF));
  r[49] = m.proxy_join ? 0x80 : 0;
  return r;
}

McMemberRecord decode_mcmember_record(std::span<const uint8_t> r) {
  McMemberRecord m;
  std::copy_n(r.begin(), 16, m.mgid.begin());
  std::copy_n(r.begin() + 16, 16, m.port_gid.begin());
  m.qkey = static_cast<uint32_t>(get_be(r, 32, 4));
  m.mlid = static_cast<uint16_t>(get_be(r, 36, 2));
  m.mtu = r[38];
  m.tclass = r[39];
  m.pkey = static_cast<uint16_t>(get_be(r, 40, 2));
  m.rate = r[42];
  m.pkt_life = r[43];
  const auto w = static_cast<uint32_t>(get_be(r, 44, 4));
  m.sl = static_cast<uint8_t>(w >> 28);
  m.flow_label = (w >> 8) & 0xFFFFF;
  m.hop_limit = static_cast<uint8_t>(w);
  m.scope = r[48] >> 4;
  m.join_state = r[48] & 0xF;
  m.proxy_join = (r[49] & 0x80) != 0;
  return m;
}

std::array<uint8_t, kServiceRecordSize> encode_service_record(const ServiceRecord& sr) {
  std::array<uint8_t, kServiceRecordSize> r{};
  put_be(r, 0, 8, sr.id);
  std::copy(sr.gid.begin(), sr.gid.end(), r.begin() + 8);
  put_be(r, 24, 2, sr.pkey);
  put_be(r, 28, 4, sr.lease);
  std::copy_n(sr.name.begin(), std::min<std::size_t>(sr.name.size(), 64), r.begin() + 48);
  return r;
}

ServiceRecord decode_service_record(std::span<const uint8_t> r) {
  ServiceRecord sr;
  sr.id = get_be(r, 0, 8);
  std::copy_n(r.begin() + 8, 16, sr.gid.begin());
  sr.pkey = static_cast<uint16_t>(get_be(r, 24, 2));
  sr.lease = static_cast<uint32_t>(get_be(r, 28, 4));
  const auto* name = reinterpret_cast<const char*>(r.data() + 48);
  sr.name.assign(name, strnlen(name, 64));
  return sr;
}

std::array<uint8_t, kInformInfoSize> encode_inform_info(const InformInfo& ii) {
  std::array<uint8_t, kInformInfoSize> r{};
  std::copy(ii.gid.begin(), ii.gid.end(), r.begin());
  put_be(r, 16, 2, ii.lid_begin);
  put_be(r, 18, 2, ii.lid_end);
  r[22] = ii.is_generic ? 1 : 0;
  r[23] = ii.subscribe ? 1 : 0;
  put_be(r, 24, 2, ii.type);
  put_be(r, 26, 2, ii.trap_number);
  put_be(r, 28, 4, (static_cast<uint32_t>(ii.qpn & 0xFFFFFF) << 8) | (ii.resp_time & 0x1F));
  put_be(r, 33, 3, ii.producer_type & 0xFFFFFF);
  return r;
}

InformInfo decode_inform_info(std::span<const uint8_t> r) {
  InformInfo ii;
  std::copy_n(r.begin(), 16, ii.gid.begin());
  ii.lid_begin = static_cast<uint16_t>(get_be(r, 16, 2));
  ii.lid_end = static_cast<uint16_t>(get_be(r, 18, 2));
  ii.is_generic = r[22] != 0;
  ii.subscribe = r[23] != 0;
  ii.type = static_cast<uint16_t>(get_be(r, 24, 2));
  ii.trap_number = static_cast<uint16_t>(get_be(r, 26, 2));
  const uint32_t w = static_cast<uint32_t>(get_be(r, 28, 4));
  ii.qpn = w >> 8;
  ii.resp_time = w & 0x1F;
  ii.producer_type = static_cast<uint32_t>(get_be(r, 33, 3));
  return ii;
}

Notice decode_notice(std::span<const uint8_t> r) {
  Notice n;
  n.is_generic = r[0] >> 7;
  n.type = r[0] & 0x7F;
  n.producer_type = static_cast<uint32_t>(get_be(r, 1, 3));
  n.trap_number = static_cast<uint16_t>(get_be(r, 4, 2));
  n.issuer_lid = static_cast<uint16_t>(get_be(r, 6, 2));
  n.toggle_count = static_cast<uint16_t>(get_be(r, 8, 2));
  std::copy_n(r.begin() + 10, 54, n.details.begin());
  std::copy_n(r.begin() + 64, 16, n.issuer_gid.begin());
  return n;
}

}  // namespace sa_client
