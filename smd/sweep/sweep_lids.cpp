// Phase 2 of a heavy sweep: LIDs (IBA 7.11.1; preference guid2lid file > LID found on the port > lowest
// free LMC-aligned range), and the guid2lid file kept up to date (smd/state/guid2lid_file.h).
#include <spdlog/spdlog.h>

#include <filesystem>
#include <unordered_map>

#include "smd/state/guid2lid_file.h"
#include "smd/sweep/phase_timer.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

bool SweepRunner::assign_lids_phase(const Topology& topo, SweepSummary& s, std::vector<SweepProblem>& problems) {
  PhaseTimer t(s, SweepPhase::kLids, "LIDs assigned");
  const std::string guid2lid_path = policy_.sm.state_dir + "/guid2lid";
  if (!guid2lid_file_.loaded()) {
    auto loaded = read_guid2lid(guid2lid_path);
    if (loaded.ok()) {
      remembered_ = std::move(loaded->entries);
      for (const auto& msg : loaded->problems) spdlog::warn("guid2lid: {} (entry ignored)", msg);
      for (const auto& msg : guid2lid_above_lft_cap(*loaded, guid2lid_path, topo)) spdlog::warn("guid2lid: {}", msg);
      guid2lid_file_.mark_loaded();
    } else {
      guid2lid_file_.refuse();
      spdlog::error(
          "guid2lid: {}; LIDs are assigned without it, and the file is left as it is: this process will not "
          "write guid2lid (move the file away and restart smd to have LIDs remembered again)",
          loaded.error().message);
    }
  }
  LidAssignOptions lid_opts;
  lid_opts.lmc = policy_.lid.lmc;
  std::vector<std::string> passed_over;
  auto lids = assign_lids(topo, remembered_, lid_opts, &passed_over);
  if (!passed_over.empty()) {
    // One line, not one per port: an LMC change passes over every range at once.
    spdlog::warn("guid2lid: {} remembered LID range(s) not kept, those ports get new LIDs (first: {})",
                 passed_over.size(), passed_over.front());
    for (const std::string& line : passed_over) spdlog::debug("guid2lid: not kept: {}", line);
  }
  if (!lids.ok()) {
    problems.push_back({ProblemCode::kNoRoute, 0, "0", "LID assignment", lids.error().message});
    return false;
  }
  desired_.lids = std::make_shared<const LidMap>(std::move(lids.value()));
  s.lids = desired_.lids->entries().size();
  merge_guid2lid(remembered_, to_guid2lid(topo, *desired_.lids));
  save_guid2lid();
  return true;
}

void SweepRunner::save_guid2lid() {
  guid2lid_file_.save(policy_.sm.state_dir, policy_.sm.state_dir + "/guid2lid", remembered_, write_guid2lid,
                      "guid2lid");
}

void SweepRunner::remember_port_lids(const Topology& topo) {
  Guid2Lid found;
  std::unordered_map<Lid, unsigned> holders;  // how many ports hold each LID found
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      const bool endport = node.is_switch() ? p == 0 : port.connected();
      if (!endport || port.lid == 0) continue;
      const Guid guid = port.guid ? port.guid : node.guid;
      const unsigned count = 1u << port.lmc;
      // Only what a master could have granted: unicast, LMC-aligned (a nonsense LID is not remembered).
      if (port.lid % count != 0 || port.lid + count - 1u > kMaxUnicastLid) continue;
      found[guid] = LidRange{port.lid, static_cast<Lid>(port.lid + count - 1)};
      for (unsigned i = 0; i < count; ++i) ++holders[static_cast<Lid>(port.lid + i)];
    }
  }
  // Two masters gave out the same LID (two subnets cabled together): neither port's is remembered, so the
  // file never lists one LID twice; the sweep that configures the joined subnet decides between them.
  std::erase_if(found, [&holders](const auto& entry) {
    for (Lid l = entry.second.min; l <= entry.second.max; ++l) {
      if (holders[l] > 1) return true;
    }
    return false;
  });
  merge_guid2lid(remembered_, found);
  save_guid2lid();
}

}  // namespace smd
