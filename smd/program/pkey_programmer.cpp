#include "smd/program/pkey_programmer.h"

#include <algorithm>

#include "mad/codec/pkey_table.h"
#include "mad/codec/port_info.h"
#include "smd/program/pkey_plan.h"
#include "smd/program/table_writer.h"

namespace smd {

namespace {

// P_Key blocks into AppliedPKeys; enforcement answers into AppliedPKeys and the sweep's view.
class PKeyRecorder final : public WriteRecorder {
 public:
  PKeyRecorder(SweepFabric& fabric, AppliedPKeys& applied, PKeyCounts& counts)
      : fabric_(fabric), applied_(applied), counts_(counts) {}

  void answered(const TableWrite& w, const mad::SmpData& reply, bool believed) override {
    if (w.request.attr_id == mad::attr::kPKeyTable) {
      if (believed) {
        applied_.record_block(w.guid, w.port, w.request.attr_mod & 0xffffu,
                              mad::PKeyBlock::decode(w.request.data).entries);
      } else {
        unanswered(w);
      }
      return;
    }
    // The answer is the PortInfo the port holds, echoed or not: later Sets start from it.
    const auto pi = mad::PortInfo::decode(reply);
    fabric_.acknowledge_port(w.node, w.port, pi);
    applied_.record_enforcement(w.guid, w.port, pi.partition_enforcement_inbound, pi.partition_enforcement_outbound);
  }

  void unanswered(const TableWrite& w) override {
    if (w.request.attr_id != mad::attr::kPKeyTable) return;
    applied_.forget_block(w.guid, w.port, w.request.attr_mod & 0xffffu);
    ++counts_.blocks_failed;
  }

 private:
  SweepFabric& fabric_;
  AppliedPKeys& applied_;
  PKeyCounts& counts_;
};

}  // namespace

PKeyCounts program_pkeys(SmpBatch& batch, SweepFabric& fabric, const PartitionPlan& want, AppliedPKeys& applied,
                         std::vector<SweepProblem>& problems) {
  PKeyCounts counts;
  for (SweepProblem& p : partition_problems(fabric, want)) problems.push_back(std::move(p));
  const PKeyPlan plan = plan_pkey_tables(fabric, want, applied);
  counts.ports = plan.ports;
  counts.blocks_skipped = plan.blocks_skipped;
  counts.blocks_written = static_cast<unsigned>(plan.writes.size());
  PKeyRecorder recorder(fabric, applied, counts);
  write_plan(batch, plan.writes, recorder, problems);
  unsigned right = 0;
  const std::vector<TableWrite> enforce = plan_pkey_enforcement(fabric, want, applied, right);
  counts.enforcement_sets = static_cast<unsigned>(enforce.size());
  write_plan(batch, enforce, recorder, problems);
  return counts;
}

}  // namespace smd
