// FRR configuration per switch for the RFC 7938 eBGP Clos of a RoutePlan: one frr.conf per router
// with bgpd configured (numbered eBGP sessions over the /31 of every switch cable, multipath across
// neighbour ASNs, the loopback and the local host prefix announced). Text only: writing the files is
// the caller's job (smd/cli/roce_plan_output.cpp). Interfaces are named "swp<port>" (the Linux switchdev /
// Cumulus convention FRR's documentation uses); a leaf's host ports are bridged on "br0", which holds
// the gateway address of the host prefix.
#pragma once

#include <string>
#include <vector>

#include "routing/roce/clos_plan.h"

namespace smd::roce {

/// FRR's default multipath limit (MULTIPATH_NUM, set when FRR is built: 64 in Debian's and FRR's own
/// packages). A switch with more next hops in one group gets a warning comment in its frr.conf.
inline constexpr unsigned kFrrMaxPaths = 64;

/// The frr.conf text of switch s (dense index into plan.switches()); `hostname` must be a single word
/// (use switch_dir_names()).
std::string frr_config(const RoutePlan& plan, SwitchIndex s, const std::string& hostname);

/// One file-system-safe, unique name per switch: the description with every character outside
/// [A-Za-z0-9._-] replaced by '_' (empty -> "switch"), "-<index>" appended to later duplicates.
std::vector<std::string> switch_dir_names(const RoutePlan& plan);

}  // namespace smd::roce
