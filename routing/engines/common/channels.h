// Directed switch-to-switch channels: one per cable end that leads from a switch to another switch, so
// parallel cables are separate channels. The unit SSSP weighs and the channel-dependency graph of DFSSSP is
// built on (Dally & Seitz 1987: a channel is one direction of one link).
#pragma once

#include <cstdint>
#include <vector>

#include "routing/model/hop_table.h"

namespace smd {

using ChannelId = std::uint32_t;
inline constexpr ChannelId kNoChannel = 0xFFFFFFFFu;

/// Dense ids for the channels of a SwitchGraph. The channels leaving switch s are first(s) .. first(s+1)-1,
/// in SwitchGraph::links(s) order (port order). O(S + slots) to build; every lookup is O(1).
class ChannelIndex {
 public:
  explicit ChannelIndex(const SwitchGraph& graph);

  std::size_t size() const { return from_.size(); }
  ChannelId first(SwitchIndex s) const { return first_[s]; }
  ChannelId end(SwitchIndex s) const { return first_[s + 1]; }
  SwitchIndex from(ChannelId c) const { return from_[c]; }
  SwitchIndex to(ChannelId c) const { return to_[c]; }
  /// Out-port of from(c) the channel leaves by.
  PortNum port(ChannelId c) const { return port_[c]; }
  /// The other direction of the same cable.
  ChannelId reverse(ChannelId c) const { return reverse_[c]; }
  /// The channel switch s sends on through port p; kNoChannel when p does not lead to a switch.
  ChannelId of_port(const SwitchGraph& graph, SwitchIndex s, PortNum p) const {
    return p <= graph.num_ports(s) ? of_slot_[graph.slot(s, p)] : kNoChannel;
  }

 private:
  std::vector<ChannelId> first_;  // size S+1
  std::vector<SwitchIndex> from_;
  std::vector<SwitchIndex> to_;
  std::vector<PortNum> port_;
  std::vector<ChannelId> reverse_;
  std::vector<ChannelId> of_slot_;  // [SwitchGraph slot] -> channel
};

}  // namespace smd
