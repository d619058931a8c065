#include "smd/fabric/applied_port_fields.h"

namespace smd {

void AppliedPortFields::record(Guid node_guid, PortNum p, const mad::PortInfo& sent, const mad::PortInfo& echoed) {
  PortFieldAcks& acks = record_of(node_guid, p);
  for (std::size_t i = 0; i < kPortFieldCount; ++i) {
    const auto f = static_cast<PortField>(i);
    acks[i] = FieldAck{port_field(sent, f), port_field(echoed, f)};
  }
}

}  // namespace smd
