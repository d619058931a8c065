// AppliedTables: what each switch acknowledged holding, kept across sweeps by switch GUID (OpenSM's
// "believed" LFT blocks). A table entry is recorded only when the SMA's GetResp echoed the write
// (smd/program/table_writer.h); a write that was not echoed leaves the entry unknown, so it is written
// again. A switch seen for the first time holds nothing as far as the SM knows: every block is written.
// One table per attribute: LinearForwardingTable blocks and LinearFDBTop today; P_Key blocks, SL2VL,
// VLArb and MFT blocks are each a map of the same shape beside it.
#pragma once

#include <array>
#include <optional>
#include <unordered_map>
#include <vector>

#include "routing/model/forwarding.h"

namespace smd {

/// One switch's LFT as acknowledged (IBA 14.2.5.10 blocks, 14.2.5.4 LinearFDBTop).
struct AppliedLft {
  using Block = std::array<std::uint8_t, kLftBlockSize>;
  std::vector<std::optional<Block>> blocks;  ///< [block number]; nullopt: unknown
  std::optional<Lid> top;                    ///< LinearFDBTop; nullopt: unknown (use what discovery read)

  /// True when block `b` is known to hold `want`.
  bool block_is(unsigned b, const Block& want) const { return b < blocks.size() && blocks[b] && *blocks[b] == want; }
};

class AppliedTables {
 public:
  /// The switch's acknowledged LFT, null when the SM knows nothing of it.
  const AppliedLft* lft(Guid switch_guid) const;
  /// Block `b` of the switch's LFT was echoed as `data`.
  void record_lft_block(Guid switch_guid, unsigned b, const AppliedLft::Block& data);
  /// Block `b` may hold anything now (its Set was not echoed).
  void forget_lft_block(Guid switch_guid, unsigned b);
  /// LinearFDBTop was echoed as (or, before any write, read by discovery as) `top`.
  void record_lft_top(Guid switch_guid, Lid top);

  /// True when the switch is known to hold exactly `want` (every block and LinearFDBTop).
  bool holds(Guid switch_guid, const Lft& want) const;

  /// Forget what one switch holds (it rebooted or was replaced): everything is written again.
  void forget(Guid switch_guid) { lft_.erase(switch_guid); }
  void forget_all() { lft_.clear(); }

 private:
  std::unordered_map<Guid, AppliedLft> lft_;
};

}  // namespace smd
