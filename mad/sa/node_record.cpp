// NodeRecord codec: LID at 0, NodeInfo at byte 4 (IBA table 146 offsets + 4), NodeDescription at byte 44.
#include "mad/sa/node_record.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr std::size_t kNodeInfoAt = 4;
constexpr std::size_t kDescriptionAt = 44;
constexpr FieldSpan kNodeRecordFields[] = {
    bytes_at(0, 2),  bytes_at(2, 2),  bytes_at(4, 1),  bytes_at(5, 1),  bytes_at(6, 1),
    bytes_at(7, 1),  bytes_at(8, 8),  bytes_at(16, 8), bytes_at(24, 8), bytes_at(32, 2),
    bytes_at(34, 2), bytes_at(36, 4), bytes_at(40, 1), bytes_at(41, 3), bytes_at(kDescriptionAt, 64),
};
}  // namespace

const RecordLayout kNodeRecordLayout{"NodeRecord", 0x0011, NodeRecord::kSize, kNodeRecordFields};

NodeRecord NodeRecord::decode(std::span<const std::uint8_t> rec) {
  NodeRecord r;
  r.lid = static_cast<std::uint16_t>(get_field(rec, kNodeRecordFields[0]));
  std::copy_n(rec.begin() + kNodeInfoAt, kNodeInfoSize, r.node_info.begin());
  std::copy_n(rec.begin() + kDescriptionAt, r.description.size(), r.description.begin());
  return r;
}

void NodeRecord::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  put_field(rec, kNodeRecordFields[0], lid);
  std::copy_n(node_info.begin(), kNodeInfoSize, rec.begin() + kNodeInfoAt);
  std::copy(description.begin(), description.end(), rec.begin() + kDescriptionAt);
}

}  // namespace smd::mad::sa
