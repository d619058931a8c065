// MultiPathRecord: one PathRecord query per (SGID, DGID) pair, the properties carried over bit by bit.
#include "smd/sa/multi_path_records.h"

#include "mad/sa/multi_path_record.h"
#include "mad/sa/path_record.h"
#include "smd/sa/path_records.h"

namespace smd::sa {

using namespace mad::sa;

namespace {
/// MultiPathRecord ComponentMask bit -> the PathRecord bit of the same property.
constexpr std::pair<std::uint64_t, std::uint64_t> kMaskMap[] = {
    {mpr_mask::kRawTraffic, pr_mask::kRawTraffic},
    {mpr_mask::kFlowLabel, pr_mask::kFlowLabel},
    {mpr_mask::kHopLimit, pr_mask::kHopLimit},
    {mpr_mask::kTClass, pr_mask::kTClass},
    {mpr_mask::kReversible, pr_mask::kReversible},
    {mpr_mask::kNumbPath, pr_mask::kNumbPath},
    {mpr_mask::kPKey, pr_mask::kPKey},
    {mpr_mask::kQosClass, pr_mask::kQosClass},
    {mpr_mask::kSl, pr_mask::kSl},
    {mpr_mask::kMtuSelector, pr_mask::kMtuSelector},
    {mpr_mask::kMtu, pr_mask::kMtu},
    {mpr_mask::kRateSelector, pr_mask::kRateSelector},
    {mpr_mask::kRate, pr_mask::kRate},
    {mpr_mask::kPacketLifeSelector, pr_mask::kPacketLifeSelector},
    {mpr_mask::kPacketLife, pr_mask::kPacketLife},
};
}  // namespace

SaAnswer answer_multi_path_records(const SaSnapshot& snap, const SaQuery& q) {
  if ((q.mask() & (mpr_mask::kSgidCount | mpr_mask::kDgidCount)) != (mpr_mask::kSgidCount | mpr_mask::kDgidCount)) {
    return SaAnswer::error(status::kInsufficientComponents);
  }
  const std::optional<MultiPathRecord> mpr = MultiPathRecord::decode(q.rec());
  if (!mpr) return SaAnswer::error(status::kReqInvalid);
  if (mpr->sgids.empty() || mpr->dgids.empty()) return SaAnswer::error(status::kInsufficientComponents);

  std::uint64_t pr_bits = pr_mask::kSgid | pr_mask::kDgid;
  for (const auto& [from, to] : kMaskMap) {
    if (q.mask() & from) pr_bits |= to;
  }
  const bool sid_msb = q.mask() & mpr_mask::kServiceIdMsb;
  const bool sid_lsb = q.mask() & mpr_mask::kServiceIdLsb;
  if (sid_msb != sid_lsb) return SaAnswer::error(status::kInsufficientComponents);
  if (sid_msb) pr_bits |= pr_mask::kServiceId;

  PathRecord tmpl;
  tmpl.raw_traffic = mpr->raw_traffic;
  tmpl.flow_label = mpr->flow_label;
  tmpl.hop_limit = mpr->hop_limit;
  tmpl.tclass = mpr->tclass;
  tmpl.reversible = mpr->reversible;
  tmpl.numb_path = mpr->numb_path;
  tmpl.pkey = mpr->pkey;
  tmpl.qos_class = mpr->qos_class;
  tmpl.sl = mpr->sl;
  tmpl.mtu_selector = mpr->mtu_selector;
  tmpl.mtu = mpr->mtu;
  tmpl.rate_selector = mpr->rate_selector;
  tmpl.rate = mpr->rate;
  tmpl.packet_life_selector = mpr->packet_life_selector;
  tmpl.packet_life = mpr->packet_life;
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
