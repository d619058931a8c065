// MCMemberRecord codec (IBA vol. 1, 15.2.5.17, table 219): MGID 0, PortGID 16, Q_Key 32, MLID 36,
// MTUSelector|MTU 38, TClass 39, P_Key 40, RateSelector|Rate 42, PacketLifeTimeSelector|PacketLifeTime 43,
// SL|FlowLabel|HopLimit 44..47, Scope|JoinState 48, ProxyJoin 49 bit 7; the rest reserved.
#include "mad/sa/mcmember_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
// The GIDs are 128 bits: coded apart, as PathRecord's.
constexpr BitSpan kMgid = bytes_at(0, 16);
constexpr BitSpan kPortGid = bytes_at(16, 16);
constexpr FieldTable kMcMemberRecordTable{
    coded_apart<kMgid>,
    coded_apart<kPortGid>,
    bind<&McMemberRecord::q_key, bytes_at(32, 4)>,
    bind<&McMemberRecord::mlid, bytes_at(36, 2)>,
    bind<&McMemberRecord::mtu_selector, at(38, 0, 2)>,
    bind<&McMemberRecord::mtu, at(38, 2, 6)>,
    bind<&McMemberRecord::tclass, bytes_at(39, 1)>,
    bind<&McMemberRecord::pkey, bytes_at(40, 2)>,
    bind<&McMemberRecord::rate_selector, at(42, 0, 2)>,
    bind<&McMemberRecord::rate, at(42, 2, 6)>,
    bind<&McMemberRecord::life_selector, at(43, 0, 2)>,
    bind<&McMemberRecord::packet_life, at(43, 2, 6)>,
    bind<&McMemberRecord::sl, at(44, 0, 4)>,
    bind<&McMemberRecord::flow_label, at(44, 4, 20)>,
    bind<&McMemberRecord::hop_limit, bytes_at(47, 1)>,
    bind<&McMemberRecord::scope, at(48, 0, 4)>,
    bind<&McMemberRecord::join_state, at(48, 4, 4)>,
    bind<&McMemberRecord::proxy_join, at(49, 0, 1)>,
};
constexpr auto kMcMemberRecordFields = component_spans(kMcMemberRecordTable);
static_assert(kMcMemberRecordFields.size() == field_count<McMemberRecordField>(),
              "one ComponentMask position per field");
}  // namespace

const RecordLayout kMcMemberRecordLayout{"MCMemberRecord", 0x0038, McMemberRecord::kSize, kMcMemberRecordFields};

McMemberRecord McMemberRecord::decode(std::span<const std::uint8_t> rec) {
  auto r = decode_record<McMemberRecord>(rec, kMcMemberRecordTable);
  std::copy_n(rec.begin() + kMgid.bit_offset / 8, 16, r.mgid.begin());
  std::copy_n(rec.begin() + kPortGid.bit_offset / 8, 16, r.port_gid.begin());
  return r;
}

void McMemberRecord::encode(std::span<std::uint8_t> rec) const {
  encode_record(*this, rec, kSize, kMcMemberRecordTable);
  std::copy(mgid.begin(), mgid.end(), rec.begin() + kMgid.bit_offset / 8);
  std::copy(port_gid.begin(), port_gid.end(), rec.begin() + kPortGid.bit_offset / 8);
}

}  // namespace smd::mad::sa
