// PathRecord codec: the field table of IBA vol. 1, 15.2.5.16 (table 221) in ComponentMask order.
#include "mad/sa/path_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
enum Field : unsigned {
  kServiceIdHigh,
  kServiceIdLow,
  kDgid,
  kSgid,
  kDlid,
  kSlid,
  kRawTraffic,
  kReserved1,
  kFlowLabel,
  kHopLimit,
  kTClass,
  kReversible,
  kNumbPath,
  kPKey,
  kQosClass,
  kSl,
  kMtuSelector,
  kMtu,
  kRateSelector,
  kRate,
  kLifeSelector,
  kLife,
  kPreference,
  kReserved2,
};
constexpr FieldSpan kFields[] = {
    bytes_at(0, 4), bytes_at(4, 4),  bytes_at(8, 16), bytes_at(24, 16), bytes_at(40, 2), bytes_at(42, 2),
    at(44, 0, 1),   at(44, 1, 3),    at(44, 4, 20),   bytes_at(47, 1),  bytes_at(48, 1), at(49, 0, 1),
    at(49, 1, 7),   bytes_at(50, 2), at(52, 0, 12),   at(53, 4, 4),     at(54, 0, 2),    at(54, 2, 6),
    at(55, 0, 2),   at(55, 2, 6),    at(56, 0, 2),    at(56, 2, 6),     bytes_at(57, 1), bytes_at(58, 6),
};

void put_gid(std::span<std::uint8_t> rec, FieldSpan f, const Gid& gid) {
  std::copy(gid.begin(), gid.end(), rec.begin() + f.bit_offset / 8);
}
Gid get_gid(std::span<const std::uint8_t> rec, FieldSpan f) {
  Gid gid{};
  std::copy_n(rec.begin() + f.bit_offset / 8, gid.size(), gid.begin());
  return gid;
}
}  // namespace

const RecordLayout kPathRecordLayout{"PathRecord", 0x0035, PathRecord::kSize, kFields};

Gid make_gid(std::uint64_t prefix, std::uint64_t guid) {
  Gid gid{};
  for (int i = 0; i < 8; ++i) {
    gid[7 - i] = static_cast<std::uint8_t>(prefix >> (8 * i));
    gid[15 - i] = static_cast<std::uint8_t>(guid >> (8 * i));
  }
  return gid;
}
std::uint64_t gid_prefix(const Gid& gid) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | gid[i];
  return v;
}
std::uint64_t gid_guid(const Gid& gid) {
  std::uint64_t v = 0;
  for (int i = 8; i < 16; ++i) v = (v << 8) | gid[i];
  return v;
}

PathRecord PathRecord::decode(std::span<const std::uint8_t> rec) {
  PathRecord r;
  r.service_id = (get_field(rec, kFields[kServiceIdHigh]) << 32) | get_field(rec, kFields[kServiceIdLow]);
  r.dgid = get_gid(rec, kFields[kDgid]);
  r.sgid = get_gid(rec, kFields[kSgid]);
  r.dlid = static_cast<std::uint16_t>(get_field(rec, kFields[kDlid]));
  r.slid = static_cast<std::uint16_t>(get_field(rec, kFields[kSlid]));
  r.raw_traffic = get_field(rec, kFields[kRawTraffic]) != 0;
  r.flow_label = static_cast<std::uint32_t>(get_field(rec, kFields[kFlowLabel]));
  r.hop_limit = static_cast<std::uint8_t>(get_field(rec, kFields[kHopLimit]));
  r.tclass = static_cast<std::uint8_t>(get_field(rec, kFields[kTClass]));
  r.reversible = get_field(rec, kFields[kReversible]) != 0;
  r.numb_path = static_cast<std::uint8_t>(get_field(rec, kFields[kNumbPath]));
  r.pkey = static_cast<std::uint16_t>(get_field(rec, kFields[kPKey]));
  r.qos_class = static_cast<std::uint16_t>(get_field(rec, kFields[kQosClass]));
  r.sl = static_cast<std::uint8_t>(get_field(rec, kFields[kSl]));
  r.mtu_selector = static_cast<std::uint8_t>(get_field(rec, kFields[kMtuSelector]));
  r.mtu = static_cast<std::uint8_t>(get_field(rec, kFields[kMtu]));
  r.rate_selector = static_cast<std::uint8_t>(get_field(rec, kFields[kRateSelector]));
  r.rate = static_cast<std::uint8_t>(get_field(rec, kFields[kRate]));
  r.packet_life_selector = static_cast<std::uint8_t>(get_field(rec, kFields[kLifeSelector]));
  r.packet_life = static_cast<std::uint8_t>(get_field(rec, kFields[kLife]));
  r.preference = static_cast<std::uint8_t>(get_field(rec, kFields[kPreference]));
  return r;
}

void PathRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  put_field(rec, kFields[kServiceIdHigh], service_id >> 32);
  put_field(rec, kFields[kServiceIdLow], service_id & 0xFFFFFFFFu);
  put_gid(rec, kFields[kDgid], dgid);
  put_gid(rec, kFields[kSgid], sgid);
  put_field(rec, kFields[kDlid], dlid);
  put_field(rec, kFields[kSlid], slid);
  put_field(rec, kFields[kRawTraffic], raw_traffic ? 1 : 0);
  put_field(rec, kFields[kFlowLabel], flow_label);
  put_field(rec, kFields[kHopLimit], hop_limit);
  put_field(rec, kFields[kTClass], tclass);
  put_field(rec, kFields[kReversible], reversible ? 1 : 0);
  put_field(rec, kFields[kNumbPath], numb_path);
  put_field(rec, kFields[kPKey], pkey);
  put_field(rec, kFields[kQosClass], qos_class);
  put_field(rec, kFields[kSl], sl);
  put_field(rec, kFields[kMtuSelector], mtu_selector);
  put_field(rec, kFields[kMtu], mtu);
  put_field(rec, kFields[kRateSelector], rate_selector);
  put_field(rec, kFields[kRate], rate);
  put_field(rec, kFields[kLifeSelector], packet_life_selector);
  put_field(rec, kFields[kLife], packet_life);
  put_field(rec, kFields[kPreference], preference);
}

}  // namespace smd::mad::sa
