// LinkRecord codec (IBA vol. 1, 15.2.5.13, table 216).
#include "mad/sa/link_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr FieldSpan kFields[] = {bytes_at(0, 2), bytes_at(2, 1), bytes_at(3, 1), bytes_at(4, 2)};
}

const RecordLayout kLinkRecordLayout{"LinkRecord", 0x0020, LinkRecord::kSize, kFields};

LinkRecord LinkRecord::decode(std::span<const std::uint8_t> rec) {
  LinkRecord r;
  r.from_lid = static_cast<std::uint16_t>(get_field(rec, kFields[0]));
  r.from_port = rec[2];
  r.to_port = rec[3];
  r.to_lid = static_cast<std::uint16_t>(get_field(rec, kFields[3]));
  return r;
}

void LinkRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  put_field(rec, kFields[0], from_lid);
  rec[2] = from_port;
  rec[3] = to_port;
  put_field(rec, kFields[3], to_lid);
}

}  // namespace smd::mad::sa
