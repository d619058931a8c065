// RecordCollector: the Get/GetTable rules of IBA 15.4 (C15-0.1.7 and following) over matched records.
#include "smd/sa/sa_query.h"

#include <algorithm>

namespace smd::sa {

using namespace mad::sa;

RecordCollector::RecordCollector(const RecordLayout& layout, const SaQuery& query, std::uint32_t max_records)
    : layout_(layout),
      query_(query),
      max_(max_records),
      get_(query.method() == method::kGet),
      scratch_(layout.size, 0) {
  answer_.record_size = static_cast<std::uint16_t>(layout.size);
}

std::span<std::uint8_t> RecordCollector::slot() {
  std::fill(scratch_.begin(), scratch_.end(), std::uint8_t{0});
  return scratch_;
}

bool RecordCollector::offer() {
  if (done_ || !matches(layout_, query_.mask(), query_.rec(), scratch_)) return false;
  keep();
  return true;
}

void RecordCollector::keep() {
  if (done_) return;
  if (answer_.count >= max_) {
    answer_.truncated = true;
    done_ = true;
    return;
  }
  answer_.records.insert(answer_.records.end(), scratch_.begin(), scratch_.end());
  ++answer_.count;
  if (get_ && answer_.count > 1) done_ = true;
}

SaAnswer RecordCollector::finish() && {
  if (get_) {
    if (answer_.count == 0) return SaAnswer::error(status::kNoRecords);
    if (answer_.count > 1) return SaAnswer::error(status::kTooManyRecords);
  }
  return std::move(answer_);
}

}  // namespace smd::sa
