#include "smd/fabric/applied_tables.h"

namespace smd {

const AppliedLft* AppliedTables::lft(Guid switch_guid) const {
  auto it = lft_.find(switch_guid);
  return it == lft_.end() ? nullptr : &it->second;
}

void AppliedTables::record_lft_block(Guid switch_guid, unsigned b, const AppliedLft::Block& data) {
  AppliedLft& t = lft_[switch_guid];
  if (t.blocks.size() <= b) t.blocks.resize(b + 1);
  t.blocks[b] = data;
}

void AppliedTables::forget_lft_block(Guid switch_guid, unsigned b) {
  auto it = lft_.find(switch_guid);
  if (it != lft_.end() && b < it->second.blocks.size()) it->second.blocks[b].reset();
}

void AppliedTables::record_lft_top(Guid switch_guid, Lid top) { lft_[switch_guid].top = top; }

bool AppliedTables::holds(Guid switch_guid, const Lft& want) const {
  const AppliedLft* t = lft(switch_guid);
  if (t == nullptr || !t->top || *t->top != want.top()) return false;
  for (unsigned b = 0; b < want.num_blocks(); ++b) {
    if (!t->block_is(b, want.block(b))) return false;
  }
  return true;
}

}  // namespace smd
