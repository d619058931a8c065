// MCMemberRecord codec (IBA vol. 1, 15.2.5.17, table 219): MGID 0, PortGID 16, Q_Key 32, MLID 36,
// MTUSelector|MTU 38, TClass 39, P_Key 40, RateSelector|Rate 42, PacketLifeTimeSelector|PacketLifeTime 43,
// SL|FlowLabel|HopLimit 44..47, Scope|JoinState 48, ProxyJoin 49 bit 7; the rest reserved.
#include "mad/sa/mcmember_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr std::array<FieldSpan, 18> kFields = {
    bytes_at(0, 16),   // 0 MGID
    bytes_at(16, 16),  // 1 PortGID
    bytes_at(32, 4),   // 2 Q_Key
    bytes_at(36, 2),   // 3 MLID
    at(38, 0, 2),      // 4 MTUSelector
    at(38, 2, 6),      // 5 MTU
    bytes_at(39, 1),   // 6 TClass
    bytes_at(40, 2),   // 7 P_Key
    at(42, 0, 2),      // 8 RateSelector
    at(42, 2, 6),      // 9 Rate
    at(43, 0, 2),      // 10 PacketLifeTimeSelector
    at(43, 2, 6),      // 11 PacketLifeTime
    at(44, 0, 4),      // 12 SL
    at(44, 4, 20),     // 13 FlowLabel
    bytes_at(47, 1),   // 14 HopLimit
    at(48, 0, 4),      // 15 Scope
    at(48, 4, 4),      // 16 JoinState
    at(49, 0, 1),      // 17 ProxyJoin
};

template <class T>
T get(std::span<const std::uint8_t> rec, std::size_t n) {
  return static_cast<T>(get_field(rec, kFields[n]));
}
}  // namespace

const RecordLayout kMcMemberRecordLayout{"MCMemberRecord", 0x0038, McMemberRecord::kSize, kFields};

McMemberRecord McMemberRecord::decode(std::span<const std::uint8_t> rec) {
  McMemberRecord r;
  std::copy_n(rec.begin(), 16, r.mgid.begin());
  std::copy_n(rec.begin() + 16, 16, r.port_gid.begin());
  r.q_key = get<std::uint32_t>(rec, 2);
  r.mlid = get<std::uint16_t>(rec, 3);
  r.mtu_selector = get<std::uint8_t>(rec, 4);
  r.mtu = get<std::uint8_t>(rec, 5);
  r.tclass = get<std::uint8_t>(rec, 6);
  r.pkey = get<std::uint16_t>(rec, 7);
  r.rate_selector = get<std::uint8_t>(rec, 8);
  r.rate = get<std::uint8_t>(rec, 9);
  r.life_selector = get<std::uint8_t>(rec, 10);
  r.packet_life = get<std::uint8_t>(rec, 11);
  r.sl = get<std::uint8_t>(rec, 12);
  r.flow_label = get<std::uint32_t>(rec, 13);
  r.hop_limit = get<std::uint8_t>(rec, 14);
  r.scope = get<std::uint8_t>(rec, 15);
  r.join_state = get<std::uint8_t>(rec, 16);
  r.proxy_join = get<std::uint8_t>(rec, 17) != 0;
  return r;
}

void McMemberRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  std::copy(mgid.begin(), mgid.end(), rec.begin());
  std::copy(port_gid.begin(), port_gid.end(), rec.begin() + 16);
  put_field(rec, kFields[2], q_key);
  put_field(rec, kFields[3], mlid);
  put_field(rec, kFields[4], mtu_selector);
  put_field(rec, kFields[5], mtu);
  put_field(rec, kFields[6], tclass);
  put_field(rec, kFields[7], pkey);
  put_field(rec, kFields[8], rate_selector);
  put_field(rec, kFields[9], rate);
  put_field(rec, kFields[10], life_selector);
  put_field(rec, kFields[11], packet_life);
  put_field(rec, kFields[12], sl);
  put_field(rec, kFields[13], flow_label);
  put_field(rec, kFields[14], hop_limit);
  put_field(rec, kFields[15], scope);
  put_field(rec, kFields[16], join_state);
  put_field(rec, kFields[17], proxy_join ? 1 : 0);
}

}  // namespace smd::mad::sa
