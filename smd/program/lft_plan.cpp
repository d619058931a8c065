#include "smd/program/lft_plan.h"

#include <algorithm>
#include <string>

namespace smd {

LftPlan plan_lft(const SweepFabric& fabric, const RoutingTables& want, const AppliedTables& applied,
                 std::optional<std::uint8_t> life_time_value) {
  LftPlan plan;
  const Topology& topo = fabric.topo();
  for (NodeIndex s : topo.switches()) {
    const Node& sw = topo.node(s);
    const Lft& lft = want.lft[s];
    if (lft.empty()) continue;
    ++plan.switches;
    const mad::DrPath path(sw.dr_path);
    const mad::SwitchInfo* held = fabric.switch_info(s);
    if (sw.lft_cap == 0 || lft.top() >= sw.lft_cap || held == nullptr) {
      plan.problems.push_back({ProblemCode::kCapacity, sw.guid, path.to_string(), "LinearForwardingTable",
                               "table top " + std::to_string(lft.top()) + " exceeds LinearFDBCap " +
                                   std::to_string(sw.lft_cap) + "; not written"});
      continue;
    }
    const AppliedLft* acked = applied.lft(sw.guid);
    if (acked != nullptr && acked->top && *acked->top != held->linear_fdb_top) {
      plan.stale.push_back(sw.guid);
      acked = nullptr;
    }
    const bool top_known = acked != nullptr && acked->top.has_value();
    const Lid current_top = top_known ? *acked->top : held->linear_fdb_top;
    auto write = [&](std::uint16_t attr, std::uint32_t mod, EchoRule echo) -> TableWrite& {
      return add_set(plan.writes, s, 0, sw.guid, path, attr, mod, echo);
    };
    const std::uint8_t life = life_time_value.value_or(held->life_time_value);
    if (current_top != lft.top() || held->life_time_value != life) {
      mad::SwitchInfo si = *held;
      si.linear_fdb_top = lft.top();
      si.life_time_value = life;
      si.encode(write(mad::attr::kSwitchInfo, 0, EchoRule::kLinearFdbTop).request.data);
      ++plan.top_updates;
    } else if (!top_known) {
      plan.tops_confirmed.emplace_back(sw.guid, current_top);
    }
    for (unsigned blk = 0; blk < lft.num_blocks(); ++blk) {
      const AppliedLft::Block data = lft.block(blk);
      if (acked != nullptr && acked->block_is(blk, data)) {
        ++plan.blocks_skipped;
        continue;
      }
      std::copy(data.begin(), data.end(),
                write(mad::attr::kLinearForwardingTable, blk, EchoRule::kPayload).request.data.begin());
    }
  }
  return plan;
}

}  // namespace smd
