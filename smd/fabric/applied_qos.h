// AppliedQos: what each port acknowledged of its SLtoVLMappingTable (IBA 14.2.5.8) and VLArbitration
// blocks (14.2.5.9), kept across sweeps by (node GUID, port) beside AppliedPKeys. An entry is recorded
// only when the SMA's GetResp echoed the write (smd/program/table_writer.h); smd's sweep does not read
// these tables, so a port the SM has not written gets everything once, and after that only what differs.
#pragma once

#include <array>
#include <map>
#include <optional>

#include "mad/codec/vlarb_table.h"
#include "routing/base/ids.h"
#include "routing/partitions/partition_plan.h"
#include "routing/qos/qos_spec.h"
#include "smd/fabric/per_port_store.h"

namespace smd {

/// One port's acknowledged tables. For a switch the port is the out port and SL2VL is kept per in port
/// (0 = the switch's own port); a CA or router port keeps its one table under in port 0.
struct AppliedPortQos {
  std::map<PortNum, Sl2Vl> sl2vl;                           ///< [in port] -> table acknowledged
  std::array<std::optional<mad::VlArbBlockData>, 4> vlarb;  ///< [VlArbBlock - 1]

  bool sl2vl_is(PortNum in, const Sl2Vl& want) const {
    auto it = sl2vl.find(in);
    return it != sl2vl.end() && it->second == want;
  }
  bool vlarb_is(mad::VlArbBlock b, const mad::VlArbBlockData& want) const {
    const auto& held = vlarb[static_cast<std::size_t>(b) - 1];
    return held && *held == want;
  }
};

/// Per port (PerPortStore: port, forget, forget_all, size): the tables each port echoed.
class AppliedQos : public PerPortStore<AppliedPortQos> {
 public:
  /// The table of (in, out) was echoed as `table`.
  void record_sl2vl(Guid node_guid, PortNum in, PortNum out, const Sl2Vl& table);
  /// The table of (in, out) may hold anything now.
  void forget_sl2vl(Guid node_guid, PortNum in, PortNum out);
  void record_vlarb(Guid node_guid, PortNum port, mad::VlArbBlock b, const mad::VlArbBlockData& data);
  void forget_vlarb(Guid node_guid, PortNum port, mad::VlArbBlock b);
};

}  // namespace smd
