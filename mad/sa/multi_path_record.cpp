// MultiPathRecord codec (IBA vol. 1, 15.2.5.20, table 229).
#include "mad/sa/multi_path_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr FieldSpan kFields[] = {
    at(0, 0, 1),  at(0, 1, 3),     at(0, 4, 20),    bytes_at(3, 1),  bytes_at(4, 1),  at(5, 0, 1),
    at(5, 1, 7),  bytes_at(6, 2),  at(8, 0, 12),    at(9, 4, 4),     at(10, 0, 2),    at(10, 2, 6),
    at(11, 0, 2), at(11, 2, 6),    at(12, 0, 2),    at(12, 2, 6),    bytes_at(13, 1), at(14, 0, 2),
    at(14, 2, 6), bytes_at(15, 1), bytes_at(16, 1), bytes_at(17, 7),
};
enum : unsigned {
  kRaw,
  kRes1,
  kFlow,
  kHop,
  kTClass,
  kRev,
  kNumb,
  kPKey,
  kQos,
  kSl,
  kMtuSel,
  kMtu,
  kRateSel,
  kRate,
  kLifeSel,
  kLife,
  kSidMsb,
  kIndep,
  kRes2,
  kSgidCount,
  kDgidCount,
  kSidLsb
};
}  // namespace

const RecordLayout kMultiPathRecordLayout{"MultiPathRecord", 0x003A, MultiPathRecord::kFixedSize, kFields};

std::optional<MultiPathRecord> MultiPathRecord::decode(std::span<const std::uint8_t> rec) {
  if (rec.size() < kFixedSize) return std::nullopt;
  MultiPathRecord r;
  auto u = [&](unsigned f) { return get_field(rec, kFields[f]); };
  r.raw_traffic = u(kRaw) != 0;
  r.flow_label = static_cast<std::uint32_t>(u(kFlow));
  r.hop_limit = static_cast<std::uint8_t>(u(kHop));
  r.tclass = static_cast<std::uint8_t>(u(kTClass));
  r.reversible = u(kRev) != 0;
  r.numb_path = static_cast<std::uint8_t>(u(kNumb));
  r.pkey = static_cast<std::uint16_t>(u(kPKey));
  r.qos_class = static_cast<std::uint16_t>(u(kQos));
  r.sl = static_cast<std::uint8_t>(u(kSl));
  r.mtu_selector = static_cast<std::uint8_t>(u(kMtuSel));
  r.mtu = static_cast<std::uint8_t>(u(kMtu));
  r.rate_selector = static_cast<std::uint8_t>(u(kRateSel));
  r.rate = static_cast<std::uint8_t>(u(kRate));
  r.packet_life_selector = static_cast<std::uint8_t>(u(kLifeSel));
  r.packet_life = static_cast<std::uint8_t>(u(kLife));
  r.service_id = (u(kSidMsb) << 56) | u(kSidLsb);
  r.independence_selector = static_cast<std::uint8_t>(u(kIndep));
  const std::size_t ns = u(kSgidCount);
  const std::size_t nd = u(kDgidCount);
  if (kFixedSize + (ns + nd) * 16 > rec.size()) return std::nullopt;
  for (std::size_t i = 0; i < ns + nd; ++i) {
    Gid g{};
    std::copy_n(rec.begin() + static_cast<std::ptrdiff_t>(kFixedSize + 16 * i), 16, g.begin());
    (i < ns ? r.sgids : r.dgids).push_back(g);
  }
  return r;
}

void MultiPathRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill(rec.begin(), rec.end(), std::uint8_t{0});
  auto put = [&](unsigned f, std::uint64_t v) { put_field(rec, kFields[f], v); };
  put(kRaw, raw_traffic ? 1 : 0);
  put(kFlow, flow_label);
  put(kHop, hop_limit);
  put(kTClass, tclass);
  put(kRev, reversible ? 1 : 0);
  put(kNumb, numb_path);
  put(kPKey, pkey);
  put(kQos, qos_class);
  put(kSl, sl);
  put(kMtuSel, mtu_selector);
  put(kMtu, mtu);
  put(kRateSel, rate_selector);
  put(kRate, rate);
  put(kLifeSel, packet_life_selector);
  put(kLife, packet_life);
  put(kSidMsb, service_id >> 56);
  put(kSidLsb, service_id & 0x00FFFFFFFFFFFFFFull);
  put(kIndep, independence_selector);
  put(kSgidCount, sgids.size());
  put(kDgidCount, dgids.size());
  std::size_t at_byte = kFixedSize;
  for (const auto* list : {&sgids, &dgids}) {
    for (const Gid& g : *list) {
      std::copy(g.begin(), g.end(), rec.begin() + static_cast<std::ptrdiff_t>(at_byte));
      at_byte += 16;
    }
  }
}

}  // namespace smd::mad::sa
