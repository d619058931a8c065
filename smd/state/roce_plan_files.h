// The RoCEv2 route plan on disk: the plan JSON (schema "smd-roce-plan/3", docs/roce.md) and the FRR
// configurations, one frr.conf per switch. `smd plan --roce-plan/--frr-dir` and the daemon's state_dir
// writer (smd/state/roce_state_writer.h) both use these, so the two always produce the same files.
#pragma once

#include <ostream>
#include <string>

#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "routing/roce/clos_plan.h"

namespace smd {

/// Schema name written into the plan JSON (bumped when a documented field changes meaning or shape).
/// 3: switches carry "frr_dir" (their unique hostname); hosts' "leaf" and interfaces' "peer" name that,
/// not the NodeDescription, beside "leaf_guid" / "peer_guid"; routes are what BGP installs.
inline constexpr const char* kRocePlanSchema = "smd-roce-plan/3";

/// Write the plan as compact JSON (docs/roce.md) to `os`, one host or switch per line and nothing held
/// in memory beyond one switch: a 432-switch fat tree has ~250,000 routes and ~1.5 million next hops.
/// Next hops carry only their port (neighbour and its address are in the switch's `interfaces`) and a
/// route names its destination switch by index into `switches`, which keeps the file a fraction of
/// the size a fully expanded one would be. Switches are referred to by their node GUID and frr
/// directory name, never by NodeDescription (which need not be unique). Descriptions are JSON-escaped
/// (control characters as \u00XX) and bytes that are not UTF-8 replaced by U+FFFD.
void write_plan_json(std::ostream& os, const Topology& topo, const roce::RoutePlan& plan);

/// write_plan_json into `path`, atomically (temporary, fsync, rename). Errors: kIo naming the path.
Status write_plan_file(const std::string& path, const Topology& topo, const roce::RoutePlan& plan);

/// Write `dir`/<hostname>/frr.conf for every switch (roce::switch_dir_names), creating directories as
/// needed and leaving other files in `dir` alone. Errors: kIo naming the directory or file.
Status write_frr_configs(const std::string& dir, const roce::RoutePlan& plan);

/// What update_frr_dir changed.
struct FrrUpdate {
  std::size_t written = 0;    ///< frr.conf files created or replaced
  std::size_t unchanged = 0;  ///< files already holding the right text, left alone
  std::size_t removed = 0;    ///< entries of switches no longer in the fabric (or strays) removed
};

/// Bring the directory `dir` (owned by smd: state_dir/frr) to exactly one `<switch>/frr.conf` per switch
/// of `plan`. A file whose text is already right is not touched (a repair changes a few switches, not
/// hundreds); a new text goes to frr.conf.tmp, the file system is synced once, then it is renamed over
/// frr.conf, so a reader sees the old file or the new one, never a part. Every other entry in `dir`
/// (switches that left the fabric, strays) is removed. Errors: kIo naming the path; files already
/// renamed stay (each is complete).
Result<FrrUpdate> update_frr_dir(const std::string& dir, const roce::RoutePlan& plan);

}  // namespace smd
