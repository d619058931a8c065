// AppliedMft: what each switch acknowledged holding in its MulticastForwardingTable, per (block,
// position), and its MulticastFDBTop, kept across sweeps by switch GUID beside AppliedTables (the same
// rule: recorded only when the SMA's GetResp echoed the write, smd/program/table_writer.h; a write not
// echoed leaves the entry unknown, so it is written again; a switch seen for the first time holds nothing
// as far as the SM knows). IBA 14.2.5.11 (MFT), 14.2.5.4 (MulticastFDBTop).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>

#include "mad/codec/mft_block.h"
#include "routing/base/ids.h"

namespace smd {

/// One switch's MFT as acknowledged.
struct AppliedMftSwitch {
  /// [MftBlock::attr_mod(block, position)] -> the 32 masks echoed; absent: unknown.
  std::map<std::uint32_t, mad::MftBlock> blocks;
  std::optional<Lid> top;  ///< MulticastFDBTop; nullopt: unknown (use what discovery read)

  /// The acknowledged block at (block, position), null when unknown.
  const mad::MftBlock* block(unsigned blk, unsigned position) const {
    auto it = blocks.find(mad::MftBlock::attr_mod(blk, position));
    return it == blocks.end() ? nullptr : &it->second;
  }
};

class AppliedMft {
 public:
  /// The switch's acknowledged MFT, null when the SM knows nothing of it.
  const AppliedMftSwitch* mft(Guid switch_guid) const;
  /// (block, position) of the switch was echoed as `data`.
  void record_block(Guid switch_guid, unsigned block, unsigned position, const mad::MftBlock& data);
  /// (block, position) may hold anything now (its Set was not echoed, or got no answer).
  void forget_block(Guid switch_guid, unsigned block, unsigned position);
  /// MulticastFDBTop was echoed as (or, before any write, read by discovery as) `top`.
  void record_top(Guid switch_guid, Lid top);

  /// Forget what one switch holds (it rebooted or was replaced): everything is written again.
  void forget(Guid switch_guid) { mft_.erase(switch_guid); }
  void forget_all() { mft_.clear(); }
  /// Switches with anything acknowledged.
  std::size_t size() const { return mft_.size(); }

 private:
  std::unordered_map<Guid, AppliedMftSwitch> mft_;
};

}  // namespace smd
