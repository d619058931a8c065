// PathRecord codec: the field table of IBA vol. 1, 15.2.5.16 (table 221) in ComponentMask order: the
// record's own head, the path properties' table (path_properties.h) moved to byte 44, then its tail.
#include "mad/sa/path_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
// ServiceID is two 32-bit positions of the ComponentMask; the GIDs are 128 bits: those are coded apart.
constexpr BitSpan kServiceIdHigh = bytes_at(0, 4);
constexpr BitSpan kServiceIdLow = bytes_at(4, 4);
constexpr BitSpan kDgid = bytes_at(8, 16);
constexpr BitSpan kSgid = bytes_at(24, 16);
constexpr FieldTable kPathRecordHeadTable{
    coded_apart<kServiceIdHigh>,
    coded_apart<kServiceIdLow>,
    coded_apart<kDgid>,
    coded_apart<kSgid>,
    bind<&PathRecord::dlid, bytes_at(40, 2)>,
    bind<&PathRecord::slid, bytes_at(42, 2)>,
};
constexpr std::size_t kProperties = 44;  // the path properties start here
constexpr FieldTable kPathRecordTailTable{
    bind<&PathRecord::preference, bytes_at(57, 1)>,
    reserved<bytes_at(58, 6)>,
};
constexpr auto kPathRecordFields = concat_shifted(
    concat_shifted(component_spans(kPathRecordHeadTable), component_spans(kPathPropertiesFields), kProperties),
    component_spans(kPathRecordTailTable), 0);
static_assert(kProperties + kPathPropertiesSize == 57, "Preference follows PacketLifeTime");
static_assert(kPathRecordFields.size() == field_count<PathRecordField>(), "one ComponentMask position per field");

void put_gid(std::span<std::uint8_t> rec, FieldSpan f, const Gid& gid) {
  std::copy(gid.begin(), gid.end(), rec.begin() + f.bit_offset / 8);
}
Gid get_gid(std::span<const std::uint8_t> rec, FieldSpan f) {
  Gid gid{};
  std::copy_n(rec.begin() + f.bit_offset / 8, gid.size(), gid.begin());
  return gid;
}
}  // namespace

const RecordLayout kPathRecordLayout{"PathRecord", 0x0035, PathRecord::kSize, kPathRecordFields};

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
  auto r = decode_record<PathRecord>(rec, kPathRecordHeadTable);
  decode_fields(rec.data() + kProperties, r, kPathPropertiesFields);
  decode_fields(rec.data(), r, kPathRecordTailTable);
  r.service_id = (get_field(rec, kServiceIdHigh) << 32) | get_field(rec, kServiceIdLow);
  r.dgid = get_gid(rec, kDgid);
  r.sgid = get_gid(rec, kSgid);
  return r;
}

void PathRecord::encode(std::span<std::uint8_t> rec) const {
  encode_record(*this, rec, kSize, kPathRecordHeadTable);
  encode_fields(rec.data() + kProperties, *this, kPathPropertiesFields);
  encode_fields(rec.data(), *this, kPathRecordTailTable);
  put_field(rec, kServiceIdHigh, service_id >> 32);
  put_field(rec, kServiceIdLow, service_id & 0xFFFFFFFFu);
  put_gid(rec, kDgid, dgid);
  put_gid(rec, kSgid, sgid);
}

}  // namespace smd::mad::sa
