// FRR configuration per switch for the RFC 7938 eBGP Clos of a RoutePlan: one frr.conf per router with
// zebra and bgpd configured (addresses, `ip forwarding`, numbered eBGP sessions over the /31 of every
// switch cable, multipath across neighbour ASNs, the loopback and the local host prefix announced). FRR
// installs from it exactly the plan's FIB (bgp_fib.h; tests/integration/roce_frr_test.sh checks the
// kernel FIB of FRR 8.4 against the plan). Text only: writing the files is the caller's job
// (smd/state/roce_plan_files.h). Interfaces are named "swp<port>" (the Linux switchdev / Cumulus
// convention FRR's documentation uses); a leaf's host ports are bridged on "br0", which holds the
// gateway address of the host prefix. Every fabric-provided string is written through config_text
// (routing/base/safe_text.h): printable ASCII on one line.
#pragma once

#include <string>
#include <vector>

#include "routing/roce/clos_plan.h"

namespace smd::roce {

/// The largest `maximum-paths` FRR accepts: MULTIPATH_NUM, fixed when FRR is built. Debian 12's frr
/// 8.4.4 is built with --enable-multipath=256 (`vtysh --help` shows the configure line) and takes
/// `maximum-paths 256` but not 257 (`vtysh -C -f` on a config with each: rc 0, and "% Unknown command"
/// rc 2). An InfiniBand switch has at most 254 ports (NumPorts is 8 bits, 255 is reserved), so no ECMP
/// group of the plan can be wider and FRR never has to drop a member.
inline constexpr unsigned kFrrMaxPaths = 256;
inline constexpr unsigned kMaxSwitchPorts = 254;
static_assert(kMaxSwitchPorts <= kFrrMaxPaths, "an ECMP group could exceed FRR's multipath limit");

/// The frr.conf text of switch s (dense index into plan.switches()) with `hostname`, which must be one
/// FRR accepts: plan.switches()[s].hostname (what switch_dir_names() returns).
std::string frr_config(const RoutePlan& plan, SwitchIndex s, const std::string& hostname);

/// The hostname (and frr directory name) of every switch, in plan order (SwitchPlan::hostname).
std::vector<std::string> switch_dir_names(const RoutePlan& plan);

}  // namespace smd::roce
