// LinkRecord codec (IBA vol. 1, 15.2.5.13, table 216).
#include "mad/sa/link_record.h"

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr FieldTable kLinkRecordTable{
    bind<&LinkRecord::from_lid, bytes_at(0, 2)>,
    bind<&LinkRecord::from_port, bytes_at(2, 1)>,
    bind<&LinkRecord::to_port, bytes_at(3, 1)>,
    bind<&LinkRecord::to_lid, bytes_at(4, 2)>,
};
constexpr auto kLinkRecordFields = component_spans(kLinkRecordTable);
}  // namespace

const RecordLayout kLinkRecordLayout{"LinkRecord", 0x0020, LinkRecord::kSize, kLinkRecordFields};

LinkRecord LinkRecord::decode(std::span<const std::uint8_t> rec) {
  return decode_record<LinkRecord>(rec, kLinkRecordTable);
}

void LinkRecord::encode(std::span<std::uint8_t> rec) const { encode_record(*this, rec, kSize, kLinkRecordTable); }

}  // namespace smd::mad::sa
