// The fabric as discovery read it: the Topology plus the raw attributes later phases rewrite
// (read-modify-write), and the problems met on the way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mad/codec/dr_path.h"
#include "mad/codec/smp.h"
#include "routing/model/topology.h"
#include "smd/fabric/sweep_problem.h"

namespace smd {

/// The discovered fabric plus the raw attributes later phases rewrite (read-modify-write).
struct Discovered {
  std::shared_ptr<Topology> topo;
  std::vector<std::vector<mad::SmpData>> port_info;  ///< [node][port] PortInfo as read (zeros if unread)
  std::vector<std::vector<bool>> port_info_valid;    ///< [node][port] true when PortInfo was read
  std::vector<std::vector<mad::DrPath>> port_path;   ///< [node][port] DR path to reach that port's SMA
  std::vector<mad::SmpData> switch_info;             ///< [node] SwitchInfo as read (switches)
  std::vector<bool> switch_info_valid;               ///< [node] true when SwitchInfo was read (switches)
  std::vector<bool> description_valid;               ///< [node] true when NodeDescription was read
  std::vector<SweepProblem> problems;
  std::uint64_t smps = 0;  ///< SMPs completed during the sweep
};

}  // namespace smd
