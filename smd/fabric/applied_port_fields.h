// AppliedPortFields: what the SM's PortInfo Sets carried in the fields it owns besides addressing
// (smd/fabric/port_fields.h) and what each port answered, kept across sweeps by (node GUID, port) beside
// AppliedPKeys. It is what lets a port keep a field its SMA does not report as written (port_holds), as a
// real SMA would hold it: without it ibsim's ports would get a Set of SubnetTimeOut on every sweep forever.
#pragma once

#include <map>

#include "routing/base/ids.h"
#include "smd/fabric/per_port_store.h"
#include "smd/fabric/port_fields.h"

namespace smd {

/// Per port (PerPortStore: port, forget, forget_all, size, ports() for the state file port_fields_file.h);
/// a port without a record never had a Set answered by this SM.
class AppliedPortFields : public PerPortStore<PortFieldAcks> {
 public:
  /// A Set carrying `sent` was answered with `echoed`: every field's (code, echo) pair is recorded.
  void record(Guid node_guid, PortNum port, const mad::PortInfo& sent, const mad::PortInfo& echoed);
  /// Put one port's record back as a state file kept it.
  void restore(PortKey key, const PortFieldAcks& acks) { record_of(key.node_guid, key.port) = acks; }
  bool operator==(const AppliedPortFields&) const = default;
};

}  // namespace smd
