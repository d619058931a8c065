// MultiPathRecord codec (IBA vol. 1, 15.2.5.20, table 229).
#include "mad/sa/multi_path_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
using MprField = MultiPathRecordField;
// ServiceID is split over two positions (its top byte and its low 56 bits) and the GID counts follow from
// the lists: those are coded apart.
constexpr BitSpan kServiceIdMsb = bytes_at(13, 1);
constexpr BitSpan kSgidCount = bytes_at(15, 1);
constexpr BitSpan kDgidCount = bytes_at(16, 1);
constexpr BitSpan kServiceIdLsb = bytes_at(17, 7);
// The path properties come first (path_properties.h, at byte 0); this is the rest.
constexpr FieldTable kMultiPathRecordTailTable{
    coded_apart<kServiceIdMsb>, bind<&MultiPathRecord::independence_selector, at(14, 0, 2)>,
    reserved<at(14, 2, 6)>,     coded_apart<kSgidCount>,
    coded_apart<kDgidCount>,    coded_apart<kServiceIdLsb>,
};
constexpr auto kMultiPathRecordFields =
    concat_shifted(component_spans(kPathPropertiesFields), component_spans(kMultiPathRecordTailTable), 0);
static_assert(kServiceIdMsb.bit_offset == kPathPropertiesSize * 8, "ServiceID8MSB follows PacketLifeTime");
static_assert(kMultiPathRecordFields.size() == field_count<MultiPathRecordField>(),
              "one ComponentMask position per field");
static_assert(kMultiPathRecordFields[static_cast<unsigned>(MprField::kSgidCount)].bit_offset == kSgidCount.bit_offset);
static_assert(kMultiPathRecordFields[static_cast<unsigned>(MprField::kServiceIdLsb)].bit_offset ==
              kServiceIdLsb.bit_offset);
}  // namespace

const RecordLayout kMultiPathRecordLayout{"MultiPathRecord", 0x003A, MultiPathRecord::kFixedSize,
                                          kMultiPathRecordFields};

std::optional<MultiPathRecord> MultiPathRecord::decode(std::span<const std::uint8_t> rec) {
  if (rec.size() < kFixedSize) return std::nullopt;
  MultiPathRecord r;
  decode_fields(rec.data(), r, kPathPropertiesFields);
  decode_fields(rec.data(), r, kMultiPathRecordTailTable);
  r.service_id = (get_field(rec, kServiceIdMsb) << 56) | get_field(rec, kServiceIdLsb);
  const std::size_t ns = get_field(rec, kSgidCount);
  const std::size_t nd = get_field(rec, kDgidCount);
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
  encode_fields(rec.data(), *this, kPathPropertiesFields);
  encode_fields(rec.data(), *this, kMultiPathRecordTailTable);
  put_field(rec, kServiceIdMsb, service_id >> 56);
  put_field(rec, kServiceIdLsb, service_id & 0x00FFFFFFFFFFFFFFull);
  put_field(rec, kSgidCount, sgids.size());
  put_field(rec, kDgidCount, dgids.size());
  std::size_t at_byte = kFixedSize;
  for (const auto* list : {&sgids, &dgids}) {
    for (const Gid& g : *list) {
      std::copy(g.begin(), g.end(), rec.begin() + static_cast<std::ptrdiff_t>(at_byte));
      at_byte += 16;
    }
  }
}

}  // namespace smd::mad::sa
