#include "smd/fabric/applied_qos.h"

namespace smd {

void AppliedQos::record_sl2vl(Guid node_guid, PortNum in, PortNum out, const Sl2Vl& table) {
  record_of(node_guid, out).sl2vl[in] = table;
}

void AppliedQos::forget_sl2vl(Guid node_guid, PortNum in, PortNum out) {
  if (AppliedPortQos* t = find(node_guid, out)) t->sl2vl.erase(in);
}

void AppliedQos::record_vlarb(Guid node_guid, PortNum p, mad::VlArbBlock b, const mad::VlArbBlockData& data) {
  record_of(node_guid, p).vlarb[static_cast<std::size_t>(b) - 1] = data;
}

void AppliedQos::forget_vlarb(Guid node_guid, PortNum p, mad::VlArbBlock b) {
  if (AppliedPortQos* t = find(node_guid, p)) t->vlarb[static_cast<std::size_t>(b) - 1].reset();
}

}  // namespace smd
