#include "smd/program/qos_programmer.h"

#include "mad/codec/port_info.h"
#include "mad/codec/sl2vl_table.h"
#include "mad/codec/vlarb_table.h"
#include "smd/program/qos_plan.h"
#include "smd/program/table_writer.h"

namespace smd {

namespace {

// SL2VL and VLArb answers into AppliedQos; VLHighLimit answers into the sweep's view.
class QosRecorder final : public WriteRecorder {
 public:
  QosRecorder(SweepFabric& fabric, AppliedQos& applied, QosCounts& counts)
      : fabric_(fabric), applied_(applied), counts_(counts) {}

  void answered(const TableWrite& w, const mad::SmpData& reply, bool believed) override {
    if (!believed) {
      unanswered(w);
      if (w.request.attr_id != mad::attr::kPortInfo) return;
    }
    switch (w.request.attr_id) {
      case mad::attr::kSlToVlTable: {
        const Sl2Vl table = mad::Sl2VlTable::decode(w.request.data).vl;
        for_each_pair(w, [&](PortNum in, PortNum out) { applied_.record_sl2vl(w.guid, in, out, table); });
        return;
      }
      case mad::attr::kVlArbTable:
        applied_.record_vlarb(w.guid, w.port, block_of(w), mad::VlArbBlockData::decode(w.request.data));
        return;
      default:
        // The answer is the PortInfo the port holds, echoed or not: later Sets start from it.
        fabric_.acknowledge_port(w.node, w.port, mad::PortInfo::decode(reply));
        return;
    }
  }

  void unanswered(const TableWrite& w) override {
    switch (w.request.attr_id) {
      case mad::attr::kSlToVlTable:
        for_each_pair(w, [&](PortNum in, PortNum out) { applied_.forget_sl2vl(w.guid, in, out); });
        ++counts_.sl2vl_tables_failed;
        return;
      case mad::attr::kVlArbTable:
        applied_.forget_vlarb(w.guid, w.port, block_of(w));
        ++counts_.vlarb_blocks_failed;
        return;
      default: return;
    }
  }

 private:
  static mad::VlArbBlock block_of(const TableWrite& w) {
    return static_cast<mad::VlArbBlock>(w.request.attr_mod >> 16);
  }

  // The (in, out) pairs one SL2VL Set covers: one, or with the optimized bits every external pair.
  template <typename F>
  void for_each_pair(const TableWrite& w, F f) const {
    const std::uint32_t mod = w.request.attr_mod;
    if ((mod & (mad::kSl2VlAllInputs | mad::kSl2VlAllOutputs)) == 0) {
      f(static_cast<PortNum>((mod >> 8) & 0xffu), w.port);
      return;
    }
    const Node& node = fabric_.topo().node(w.node);
    for (PortNum out = 1; out <= node.num_ports; ++out) {
      for (PortNum in = 0; in <= node.num_ports; ++in) f(in, out);
    }
  }

  SweepFabric& fabric_;
  AppliedQos& applied_;
  QosCounts& counts_;
};

}  // namespace

QosCounts program_qos(SmpBatch& batch, SweepFabric& fabric, const Sl2VlLookup& sl2vl,
                      const std::vector<PortVlArb>& vlarb, AppliedQos& applied, std::vector<SweepProblem>& problems) {
  QosCounts counts;
  QosRecorder recorder(fabric, applied, counts);
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
  return counts;
}

}  // namespace smd
