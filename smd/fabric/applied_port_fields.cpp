#include "smd/fabric/applied_port_fields.h"

namespace smd {

const PortFieldAcks* AppliedPortFields::port(Guid node_guid, PortNum p) const {
  auto it = ports_.find(PortKey{node_guid, p});
  return it == ports_.end() ? nullptr : &it->second;
}

void AppliedPortFields::record(Guid node_guid, PortNum p, const mad::PortInfo& sent, const mad::PortInfo& echoed) {
  PortFieldAcks& acks = ports_[PortKey{node_guid, p}];
  for (std::size_t i = 0; i < kPortFieldCount; ++i) {
    const auto f = static_cast<PortField>(i);
    acks[i] = FieldAck{port_field(sent, f), port_field(echoed, f)};
  }
}

void AppliedPortFields::forget(Guid node_guid) {
  auto it = ports_.lower_bound(PortKey{node_guid, 0});
  while (it != ports_.end() && it->first.node_guid == node_guid) it = ports_.erase(it);
}

}  // namespace smd
