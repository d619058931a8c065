#include "smd/fabric/applied_qos.h"

namespace smd {

const AppliedPortQos* AppliedQos::port(Guid node_guid, PortNum p) const {
  auto it = ports_.find(PortKey{node_guid, p});
  return it == ports_.end() ? nullptr : &it->second;
}

void AppliedQos::record_sl2vl(Guid node_guid, PortNum in, PortNum out, const Sl2Vl& table) {
  ports_[PortKey{node_guid, out}].sl2vl[in] = table;
}

void AppliedQos::forget_sl2vl(Guid node_guid, PortNum in, PortNum out) {
  auto it = ports_.find(PortKey{node_guid, out});
  if (it != ports_.end()) it->second.sl2vl.erase(in);
}

void AppliedQos::record_vlarb(Guid node_guid, PortNum p, mad::VlArbBlock b, const mad::VlArbBlockData& data) {
  ports_[PortKey{node_guid, p}].vlarb[static_cast<std::size_t>(b) - 1] = data;
}

void AppliedQos::forget_vlarb(Guid node_guid, PortNum p, mad::VlArbBlock b) {
  auto it = ports_.find(PortKey{node_guid, p});
  if (it != ports_.end()) it->second.vlarb[static_cast<std::size_t>(b) - 1].reset();
}

void AppliedQos::forget(Guid node_guid) {
  auto it = ports_.lower_bound(PortKey{node_guid, 0});
  while (it != ports_.end() && it->first.node_guid == node_guid) it = ports_.erase(it);
}

}  // namespace smd
