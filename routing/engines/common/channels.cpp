#include "routing/engines/common/channels.h"

namespace smd {

ChannelIndex::ChannelIndex(const SwitchGraph& graph) : of_slot_(graph.num_slots(), kNoChannel) {
  const std::size_t n = graph.num_switches();
  first_.reserve(n + 1);
  for (SwitchIndex s = 0; s < n; ++s) {
    first_.push_back(static_cast<ChannelId>(from_.size()));
    for (const SwitchGraph::Link& link : graph.links(s)) {
      of_slot_[graph.slot(s, link.port)] = static_cast<ChannelId>(from_.size());
      from_.push_back(s);
      to_.push_back(link.peer);
      port_.push_back(link.port);
    }
  }
  first_.push_back(static_cast<ChannelId>(from_.size()));
  reverse_.resize(from_.size(), kNoChannel);
  for (ChannelId c = 0; c < from_.size(); ++c) {
    reverse_[c] = of_port(graph, to_[c], graph.peer_port(from_[c], port_[c]));
  }
}

}  // namespace smd
