// The one recorder of the table writer (table_writer.h) for every table the SM programs: LFT and MFT
// blocks, their tops, P_Key blocks and enforcement, SL2VL tables, VLArb blocks and VLHighLimit. What an
// answer means is the same for all of them: a table Set echoed is believed and recorded in its applied
// store; one not echoed, or not answered, leaves that part unknown (so it is written again) and counts as
// failed; a SwitchInfo top Set echoed records the top and the SwitchInfo the switch answered; a PortInfo
// Set's answer, echoed or not, is the PortInfo the port holds and later Sets start from it.
#pragma once

#include <cstdint>
#include <map>

#include "smd/fabric/applied_mft.h"
#include "smd/fabric/applied_pkeys.h"
#include "smd/fabric/applied_qos.h"
#include "smd/fabric/applied_tables.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/program/table_writer.h"

namespace smd {

/// The applied stores a recorder updates; a programmer names those its plans write to (null: the plan
/// writes no such table; an answer for it is then a bug, ignored).
struct AppliedStores {
  AppliedTables* lft = nullptr;
  AppliedMft* mft = nullptr;
  AppliedPKeys* pkeys = nullptr;
  AppliedQos* qos = nullptr;
};

class AppliedRecorder final : public WriteRecorder {
 public:
  AppliedRecorder(SweepFabric& fabric, AppliedStores stores) : fabric_(fabric), stores_(stores) {}

  void answered(const TableWrite& w, const mad::SmpData& reply, bool believed) override;
  void unanswered(const TableWrite& w) override;

  /// Table Sets of attribute `attr_id` (LFT, MFT, P_Key blocks, SL2VL tables, VLArb blocks) that were not
  /// believed, so far.
  unsigned failed(std::uint16_t attr_id) const;

  /// The top a switch holds (LinearFDBTop for EchoRule::kLinearFdbTop, MulticastFDBTop for
  /// kMulticastFdbTop), as discovery read it, is the wanted one: believed without a write.
  void confirm_top(EchoRule top_rule, Guid switch_guid, Lid top);
  /// The switch's table of `top_rule` was reset behind the SM's back: nothing of it is believed.
  void forget_table(EchoRule top_rule, Guid switch_guid);

 private:
  void record_table(const TableWrite& w);
  void forget_part(const TableWrite& w);
  // The (in, out) pairs one SL2VL Set covers: one, or with the optimized bits every external pair.
  template <typename F>
  void for_each_sl2vl_pair(const TableWrite& w, F f) const;

  SweepFabric& fabric_;
  AppliedStores stores_;
  std::map<std::uint16_t, unsigned> failed_;
};

}  // namespace smd
