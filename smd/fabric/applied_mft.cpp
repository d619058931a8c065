#include "smd/fabric/applied_mft.h"

namespace smd {

const AppliedMftSwitch* AppliedMft::mft(Guid switch_guid) const {
  auto it = mft_.find(switch_guid);
  return it == mft_.end() ? nullptr : &it->second;
}

void AppliedMft::record_block(Guid switch_guid, unsigned block, unsigned position, const mad::MftBlock& data) {
  mft_[switch_guid].blocks[mad::MftBlock::attr_mod(block, position)] = data;
}

void AppliedMft::forget_block(Guid switch_guid, unsigned block, unsigned position) {
  auto it = mft_.find(switch_guid);
  if (it != mft_.end()) it->second.blocks.erase(mad::MftBlock::attr_mod(block, position));
}

void AppliedMft::record_top(Guid switch_guid, Lid top) { mft_[switch_guid].top = top; }

}  // namespace smd
