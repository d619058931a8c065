// AppliedPKeys: what each port acknowledged of its P_Key table (IBA 14.2.5.7) and its PortInfo partition
// enforcement bits (14.2.5.6), kept across sweeps by (node GUID, port), beside AppliedTables. An entry is
// recorded only when the SMA's GetResp echoed the write (smd/program/table_writer.h); a port the SM has
// not written holds nothing as far as the SM knows, so its whole table is written once (smd's sweep does
// not read P_Key tables). After that only the blocks that differ from what was acknowledged are written.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <vector>

#include "mad/codec/pkey_table.h"
#include "routing/partitions/partition_plan.h"
#include "smd/fabric/per_port_store.h"

namespace smd {

/// One port's acknowledged P_Key blocks and enforcement bits.
struct AppliedPortPKeys {
  using Block = std::array<std::uint16_t, mad::kPKeyBlockSize>;
  std::vector<std::optional<Block>> blocks;  ///< [block number]; nullopt: unknown
  std::optional<bool> enforce_in;            ///< PartitionEnforcementInbound as acknowledged
  std::optional<bool> enforce_out;           ///< PartitionEnforcementOutbound as acknowledged

  /// True when block `b` is known to hold `want`.
  bool block_is(unsigned b, const Block& want) const { return b < blocks.size() && blocks[b] && *blocks[b] == want; }
};

/// Per port (PerPortStore: port, forget, forget_all, size): the blocks and bits each port echoed.
class AppliedPKeys : public PerPortStore<AppliedPortPKeys> {
 public:
  /// Block `b` of the port's table was echoed as `data`.
  void record_block(Guid node_guid, PortNum port, unsigned b, const AppliedPortPKeys::Block& data);
  /// Block `b` may hold anything now (its Set got no answer or was not echoed).
  void forget_block(Guid node_guid, PortNum port, unsigned b);
  /// The port's PortInfo answered with these enforcement bits.
  void record_enforcement(Guid node_guid, PortNum port, bool in, bool out);
};

}  // namespace smd
