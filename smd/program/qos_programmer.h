// The "QoS configured (SL2VL, VLArb)" phase: plan the SLtoVLMappingTable, VLArbitration and VLHighLimit
// writes (qos_plan.h), send them through the one writer (table_writer.h), and record what each port
// acknowledged (smd/fabric/applied_qos.h; the PortInfo a VLHighLimit Set returned also goes into the
// sweep's view).
#pragma once

#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/qos/sl2vl_lookup.h"
#include "routing/qos/vlarb_plan.h"
#include "smd/fabric/applied_qos.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"

namespace smd {

struct QosCounts {
  unsigned sl2vl_tables_written = 0;  ///< SLtoVLMappingTable Sets sent (an optimized one counts once)
  unsigned sl2vl_tables_skipped = 0;  ///< (in, out) tables already known to hold their content
  unsigned sl2vl_tables_failed = 0;   ///< Sets not acknowledged with the same content
  unsigned vlarb_blocks_written = 0;  ///< VLArbitration block Sets sent
  unsigned vlarb_blocks_skipped = 0;  ///< blocks already known to hold their content
  unsigned vlarb_blocks_failed = 0;
  unsigned port_sets = 0;  ///< PortInfo Sets of VLHighLimit
};

/// Make every port hold `sl2vl` and `vlarb`, writing only what differs from `applied`. Every failed
/// write becomes a problem.
QosCounts program_qos(SmpBatch& batch, SweepFabric& fabric, const Sl2VlLookup& sl2vl,
                      const std::vector<PortVlArb>& vlarb, AppliedQos& applied, std::vector<SweepProblem>& problems);

}  // namespace smd
