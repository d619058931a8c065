#include "smd/program/qos_programmer.h"

#include "smd/program/applied_recorder.h"
#include "smd/program/qos_plan.h"

namespace smd {

QosCounts program_qos(SmpBatch& batch, SweepFabric& fabric, const Sl2VlLookup& sl2vl,
                      const std::vector<PortVlArb>& vlarb, AppliedQos& applied, std::vector<SweepProblem>& problems) {
  QosCounts counts;
  AppliedRecorder recorder(fabric, AppliedStores{.qos = &applied});
  const std::vector<TableWrite> tables = plan_sl2vl_writes(fabric, sl2vl, applied, counts.sl2vl_tables_skipped);
  counts.sl2vl_tables_written = static_cast<unsigned>(tables.size());
  write_plan(batch, tables, recorder, problems);
  const std::vector<TableWrite> blocks = plan_vlarb_writes(fabric, vlarb, applied, counts.vlarb_blocks_skipped);
  counts.vlarb_blocks_written = static_cast<unsigned>(blocks.size());
  write_plan(batch, blocks, recorder, problems);
  unsigned right = 0;
  const std::vector<TableWrite> limits = plan_vl_high_limit(fabric, vlarb, right);
  counts.port_sets = static_cast<unsigned>(limits.size());
  write_plan(batch, limits, recorder, problems);
  counts.sl2vl_tables_failed = recorder.failed(mad::attr::kSlToVlTable);
  counts.vlarb_blocks_failed = recorder.failed(mad::attr::kVlArbTable);
  return counts;
}

}  // namespace smd
