// MultiPathRecord: one PathRecord query per (SGID, DGID) pair, the path properties carried over whole.
#include "smd/sa/multi_path_records.h"

#include "mad/sa/multi_path_record.h"
#include "mad/sa/path_record.h"
#include "smd/sa/path_records.h"

namespace smd::sa {

using namespace mad::sa;

SaAnswer answer_multi_path_records(const SaSnapshot& snap, const SaQuery& q) {
  if ((q.mask() & (mask_bit(MultiPathRecordField::kSgidCount) | mask_bit(MultiPathRecordField::kDgidCount))) !=
      (mask_bit(MultiPathRecordField::kSgidCount) | mask_bit(MultiPathRecordField::kDgidCount))) {
    return SaAnswer::error(status::kInsufficientComponents);
  }
  const std::optional<MultiPathRecord> mpr = MultiPathRecord::decode(q.rec());
  if (!mpr) return SaAnswer::error(status::kReqInvalid);
  if (mpr->sgids.empty() || mpr->dgids.empty()) return SaAnswer::error(status::kInsufficientComponents);

  // The properties' bits move from MultiPathRecord's positions to PathRecord's, in one run (path_properties.h).
  std::uint64_t pr_bits = mask_bit(PathRecordField::kSgid) | mask_bit(PathRecordField::kDgid);
  // The run's reserved position is no property: its bit is not carried over.
  const std::uint64_t reserved = property_bit(MultiPathRecordField::kProperties, PathPropertyField::kReserved1);
  const std::uint64_t properties = q.mask() & property_bits(MultiPathRecordField::kProperties) & ~reserved;
  pr_bits |= properties >> static_cast<unsigned>(MultiPathRecordField::kProperties)
                               << static_cast<unsigned>(PathRecordField::kProperties);
  const bool sid_msb = q.mask() & mask_bit(MultiPathRecordField::kServiceIdMsb);
  const bool sid_lsb = q.mask() & mask_bit(MultiPathRecordField::kServiceIdLsb);
  if (sid_msb != sid_lsb) return SaAnswer::error(status::kInsufficientComponents);
  if (sid_msb) pr_bits |= pr_mask::kServiceId;

  PathRecord tmpl;
  static_cast<PathProperties&>(tmpl) = *mpr;
  tmpl.service_id = mpr->service_id;

  SaAnswer all;
  all.record_size = PathRecord::kSize;
  for (const Gid& s : mpr->sgids) {
    for (const Gid& d : mpr->dgids) {
      SaQuery pq = q;
      pq.header.method = method::kGetTable;
      pq.header.attr_id = attr::kPathRecord;
      pq.header.comp_mask = pr_bits;
      pq.record.fill(0);
      tmpl.sgid = s;
      tmpl.dgid = d;
      tmpl.encode(pq.record);
      SaAnswer part = answer_path_records(snap, pq);
      if (part.status != status::kOk) {
        if (part.status == status::kInvalidGid) return part;
        continue;
      }
      all.records.insert(all.records.end(), part.records.begin(), part.records.end());
      all.count += part.count;
      if (all.count >= snap.settings.max_records) {
        all.truncated = true;
        return all;
      }
    }
  }
  return all;
}

}  // namespace smd::sa
