// Flow tracing through programmed LFTs: the primitive under every routing-quality figure (report.h).
// A flow goes from a source CA port to a destination CA port's LID and crosses directed channels:
// the source's injection cable, then one switch out-port per switch (the last one is the delivery cable).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// A CA port that can send and receive: it has a base LID and is cabled to a switch.
struct Endpoint {
  NodeIndex ca = kNoNode;
  PortNum port = 0;
  Lid lid = 0;                 ///< base LID (flows address it unless told otherwise)
  SwitchIndex sw = kNoSwitch;  ///< switch the port is cabled to
  PortNum sw_port = 0;         ///< that switch's port facing the CA
};

/// Channel ids: switch out-port (s, p) = graph().slot(s, p) (covers switch-to-switch cables and the
/// delivery cables to CAs); the injection cable of endpoint e = graph().num_slots() + e.
class FlowTracer {
 public:
  /// Endpoints are the CA ports of `ca_order` (each CA's ports in port order), followed by the CAs
  /// the order leaves out, in Topology::cas() order; an empty order means Topology::cas().
  /// The tracer keeps references to `topo` and `tables`: they must outlive it.
  FlowTracer(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
             std::span<const NodeIndex> ca_order);

  const std::vector<Endpoint>& endpoints() const { return endpoints_; }
  const SwitchGraph& graph() const { return graph_; }
  /// Number of channel ids (switch slots + one injection cable per endpoint).
  std::size_t num_channels() const { return graph_.num_slots() + endpoints_.size(); }
  /// True if channel c runs between two switches (not an injection or delivery cable).
  bool is_switch_link(std::uint32_t c) const { return c < graph_.num_slots() && slot_to_switch_[c]; }

  /// Append the channels of flow src -> dst (endpoint indices; destination LID = dst's base LID + lid_offset)
  /// to `path`. Returns false, leaving `path` partly filled, when the LFTs drop or loop the flow or
  /// deliver it to the wrong port (the hop rule of routing/model/lft_walk.h).
  bool trace(std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& path, unsigned lid_offset = 0) const;

  /// Next switch-level hop: out-port of switch s for `lid` (kNoPort if none).
  PortNum out_port(SwitchIndex s, Lid lid) const { return lfts_.out_port(s, lid); }
  /// Every switch's LFT by SwitchIndex (for block walkers: SwitchLfts::copy_block).
  const SwitchLfts& lfts() const { return lfts_; }

 private:
  SwitchGraph graph_;
  SwitchLfts lfts_;  // [switch] raw LFT entries: this is the innermost loop
  std::vector<Endpoint> endpoints_;
  std::vector<std::uint8_t> slot_to_switch_;  // [slot] 1 if the out-port leads to another switch
  Lid max_lid_ = 0;
};

}  // namespace smd
