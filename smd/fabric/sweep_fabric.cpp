#include "smd/fabric/sweep_fabric.h"

#include <utility>

namespace smd {

SweepFabric::SweepFabric(ObservedFabric observed) : observed_(std::move(observed)) {
  port_acks_.resize(observed_.nodes.size());
  for (std::size_t n = 0; n < observed_.nodes.size(); ++n) port_acks_[n].resize(observed_.nodes[n].ports.size());
  switch_acks_.resize(observed_.nodes.size());
}

const mad::PortInfo* SweepFabric::port_info(NodeIndex n, PortNum p) const {
  const PortAck& ack = port_acks_[n][p];
  switch (ack.kind) {
    case PortAck::Kind::kHolds: return &ack.port_info;
    case PortAck::Kind::kUnknown: return nullptr;
    case PortAck::Kind::kNone: break;
  }
  return observed_.port_info(n, p);
}

const mad::SwitchInfo* SweepFabric::switch_info(NodeIndex n) const {
  if (switch_acks_[n]) return &*switch_acks_[n];
  const auto& si = observed_.nodes[n].switch_info;
  return si ? &*si : nullptr;
}

void SweepFabric::acknowledge_port(NodeIndex n, PortNum p, const mad::PortInfo& pi) {
  port_acks_[n][p] = {PortAck::Kind::kHolds, pi};
}

void SweepFabric::forget_port(NodeIndex n, PortNum p) { port_acks_[n][p].kind = PortAck::Kind::kUnknown; }

void SweepFabric::acknowledge_switch(NodeIndex n, const mad::SwitchInfo& si) { switch_acks_[n] = si; }

ObservedFabric SweepFabric::known() && {
  ObservedFabric out = std::move(observed_);
  for (std::size_t n = 0; n < out.nodes.size(); ++n) {
    NodeRecord& node = out.nodes[n];
    for (std::size_t p = 0; p < node.ports.size(); ++p) {
      const PortAck& ack = port_acks_[n][p];
      if (ack.kind == PortAck::Kind::kHolds) node.ports[p].port_info = ack.port_info;
      if (ack.kind == PortAck::Kind::kUnknown) node.ports[p].port_info.reset();
    }
    if (switch_acks_[n]) node.switch_info = switch_acks_[n];
  }
  port_acks_.clear();
  switch_acks_.clear();
  return out;
}

}  // namespace smd
