#include "smd/fabric/applied_pkeys.h"

namespace smd {

const AppliedPortPKeys* AppliedPKeys::port(Guid node_guid, PortNum p) const {
  auto it = ports_.find(PortKey{node_guid, p});
  return it == ports_.end() ? nullptr : &it->second;
}

void AppliedPKeys::record_block(Guid node_guid, PortNum p, unsigned b, const AppliedPortPKeys::Block& data) {
  AppliedPortPKeys& t = ports_[PortKey{node_guid, p}];
  if (t.blocks.size() <= b) t.blocks.resize(b + 1);
  t.blocks[b] = data;
}

void AppliedPKeys::forget_block(Guid node_guid, PortNum p, unsigned b) {
  auto it = ports_.find(PortKey{node_guid, p});
  if (it != ports_.end() && b < it->second.blocks.size()) it->second.blocks[b].reset();
}

void AppliedPKeys::record_enforcement(Guid node_guid, PortNum p, bool in, bool out) {
  AppliedPortPKeys& t = ports_[PortKey{node_guid, p}];
  t.enforce_in = in;
  t.enforce_out = out;
}

void AppliedPKeys::forget(Guid node_guid) {
  auto it = ports_.lower_bound(PortKey{node_guid, 0});
  while (it != ports_.end() && it->first.node_guid == node_guid) it = ports_.erase(it);
}

}  // namespace smd
