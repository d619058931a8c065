// InformInfo and InformInfoRecord codecs (IBA vol. 1, tables 120 and 218).
#include "mad/sa/inform_info.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr FieldSpan kInformFields[] = {
    bytes_at(0, 16), bytes_at(16, 2), bytes_at(18, 2), bytes_at(20, 2), bytes_at(22, 1),
    bytes_at(23, 1), bytes_at(24, 2), bytes_at(26, 2), bytes_at(28, 3), at(31, 0, 3),
    at(31, 3, 5),    bytes_at(32, 1), bytes_at(33, 3),
};
constexpr std::size_t kInformAt = 24;
// SubscriberGID, Enum, reserved, then every InformInfo field (ComponentMask bits 3..15, IBA table 218).
constexpr FieldSpan kRecordFields[] = {
    bytes_at(0, 16),
    bytes_at(16, 2),
    bytes_at(18, 6),
    bytes_at(kInformAt, 16),
    bytes_at(kInformAt + 16, 2),
    bytes_at(kInformAt + 18, 2),
    bytes_at(kInformAt + 20, 2),
    bytes_at(kInformAt + 22, 1),
    bytes_at(kInformAt + 23, 1),
    bytes_at(kInformAt + 24, 2),
    bytes_at(kInformAt + 26, 2),
    bytes_at(kInformAt + 28, 3),
    at(kInformAt + 31, 0, 3),
    at(kInformAt + 31, 3, 5),
    bytes_at(kInformAt + 32, 1),
    bytes_at(kInformAt + 33, 3),
};
}  // namespace

const RecordLayout kInformInfoLayout{"InformInfo", 0x0003, InformInfo::kSize, kInformFields};
const RecordLayout kInformInfoRecordLayout{"InformInfoRecord", 0x00F3, InformInfoRecord::kSize, kRecordFields};

InformInfo InformInfo::decode(std::span<const std::uint8_t> rec) {
  InformInfo i;
  std::copy_n(rec.begin(), i.gid.size(), i.gid.begin());
  i.lid_range_begin = static_cast<std::uint16_t>(get_field(rec, kInformFields[1]));
  i.lid_range_end = static_cast<std::uint16_t>(get_field(rec, kInformFields[2]));
  i.is_generic = rec[22] != 0;
  i.subscribe = rec[23] != 0;
  i.type = static_cast<std::uint16_t>(get_field(rec, kInformFields[6]));
  i.trap_number = static_cast<std::uint16_t>(get_field(rec, kInformFields[7]));
  i.qpn = static_cast<std::uint32_t>(get_field(rec, kInformFields[8]));
  i.resp_time_value = static_cast<std::uint8_t>(get_field(rec, kInformFields[10]));
  i.producer_type = static_cast<std::uint32_t>(get_field(rec, kInformFields[12]));
  return i;
}

void InformInfo::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  std::copy(gid.begin(), gid.end(), rec.begin());
  put_field(rec, kInformFields[1], lid_range_begin);
  put_field(rec, kInformFields[2], lid_range_end);
  rec[22] = is_generic ? 1 : 0;
  rec[23] = subscribe ? 1 : 0;
  put_field(rec, kInformFields[6], type);
  put_field(rec, kInformFields[7], trap_number);
  put_field(rec, kInformFields[8], qpn);
  put_field(rec, kInformFields[10], resp_time_value);
  put_field(rec, kInformFields[12], producer_type);
}

InformInfoRecord InformInfoRecord::decode(std::span<const std::uint8_t> rec) {
  InformInfoRecord r;
  std::copy_n(rec.begin(), r.subscriber_gid.size(), r.subscriber_gid.begin());
  r.subscriber_enum = static_cast<std::uint16_t>(get_field(rec, kRecordFields[1]));
  r.inform = InformInfo::decode(rec.subspan(kInformAt, InformInfo::kSize));
  return r;
}

void InformInfoRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  std::copy(subscriber_gid.begin(), subscriber_gid.end(), rec.begin());
  put_field(rec, kRecordFields[1], subscriber_enum);
  inform.encode(rec.subspan(kInformAt, InformInfo::kSize));
}

}  // namespace smd::mad::sa
