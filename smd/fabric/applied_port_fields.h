// AppliedPortFields: what the SM's PortInfo Sets carried in the fields it owns besides addressing
// (smd/fabric/port_fields.h) and what each port answered, kept across sweeps by (node GUID, port) beside
// AppliedPKeys. It is what lets a port keep a field its SMA does not report as written (port_holds), as a
// real SMA would hold it: without it ibsim's ports would get a Set of SubnetTimeOut on every sweep forever.
#pragma once

#include <map>

#include "routing/base/ids.h"
#include "smd/fabric/port_fields.h"

namespace smd {

class AppliedPortFields {
 public:
  /// The port's record, null when this SM never had a Set of it answered.
  const PortFieldAcks* port(Guid node_guid, PortNum port) const;
  /// A Set carrying `sent` was answered with `echoed`: every field's (code, echo) pair is recorded.
  void record(Guid node_guid, PortNum port, const mad::PortInfo& sent, const mad::PortInfo& echoed);

  /// Forget every port of one node (it rebooted, or left the fabric): what it answered means nothing now.
  void forget(Guid node_guid);
  void forget_all() { ports_.clear(); }
  std::size_t size() const { return ports_.size(); }
  /// Every port's record, in (node GUID, port) order: what the state file keeps (port_fields_file.h).
  const std::map<PortKey, PortFieldAcks>& ports() const { return ports_; }
  /// Put one port's record back as a state file kept it.
  void restore(PortKey key, const PortFieldAcks& acks) { ports_[key] = acks; }
  bool operator==(const AppliedPortFields&) const = default;

 private:
  std::map<PortKey, PortFieldAcks> ports_;
};

}  // namespace smd
