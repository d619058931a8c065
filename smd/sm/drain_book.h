// DrainBook: the operator's drains (`smctl drain`, `smctl undrain`; issue 46 item 3). A drain names switches
// or cables as routing/whatif/drain_target.h reads them; the book resolves the names on the fabric of the
// last sweep, refuses a drain that would separate two CA ports that reach each other now or that the next
// sweep could not route (a DrainRouteCheck: smd/sm/drain_routes.h), unless forced, records the parts by GUID in
// state_dir/drained (smd/state/drain_file.h) and lists them. The Daemon hands parts() to the sweep
// (SweepRunner::set_drain_requests), where drains and health isolation meet (routing/isolation/routed_topology.h).
//
// Nothing is half-done: a refused or failed request (bad name, cut-off pair, no route, the file not written) leaves
// the book and the file as they were.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "routing/base/status.h"
#include "routing/isolation/cable_isolation.h"
#include "routing/model/topology.h"
#include "smd/state/drain_file.h"

namespace smd {

/// What one drain or undrain request changed.
struct DrainChange {
  std::vector<DrainRecord> changed;  ///< recorded (drain) or removed (undrain) by this request
  /// drain: named but recorded before, left as they were; undrain: named but not drained (each part once)
  std::vector<DrainRecord> already;
  /// drain --force: the first CA pair the drains separate, "0x... (a) port 1 and 0x... (b) port 1"; "" = none.
  std::string separated;
  /// drain --force: why no engine of the chain routes the fabric with these drains (the route check's
  /// error); "" = it routes. The sweeps then route with the fallback engine (drain_routes.h).
  std::string unroutable;
};

/// Whether the fabric routes with `drains` (every drain recorded plus the new ones, as cable ends on the
/// topology given to DrainBook::drain); the error says why not (drain_routes.h gives the daemon's).
using DrainRouteCheck = std::function<Status(std::span<const CableEnd> drains)>;

class DrainBook {
 public:
  /// Unknown GUIDs check_loaded names by line; the rest are counted.
  static constexpr std::size_t kUnknownListed = 5;

  /// `path` = the file (state_dir/drained); "" keeps the book in memory only.
  explicit DrainBook(std::string path) : path_(std::move(path)) {}

  /// Read the file (a missing one is no drain). Returns the file's problems (bad lines, skipped), to log.
  /// Errors: kIo when the file cannot be read; the book is then empty, and drain/undrain refuse to write
  /// (kIo) until a load succeeds, so the drains the unreadable file holds are never overwritten.
  Result<std::vector<std::string>> load();

  /// Record `texts` (switch or cable names, drain_target.h) resolved on `topo`. Refused, nothing recorded:
  /// kInvalidInput for a name that does not resolve (the resolver's message, "smctl drain 'TEXT': why")
  /// and, unless `force`, when the drains recorded plus these would separate a pair of CA ports the
  /// recorded ones leave connected ("would cut off ... : nothing drained; --force drains anyway") or when
  /// `routes` (if given) fails for them ("smctl drain TEXTS: no engine of the chain routes the fabric with
  /// it drained: WHY: nothing drained; ..."); kIo when the file is not written. A forced drain that was
  /// refused for either reason is recorded as forced.
  Result<DrainChange> drain(const Topology& topo, std::span<const std::string> texts, bool force,
                            const DrainRouteCheck& routes = {});

  /// Remove the drains `texts` name (resolved on `topo` when it has them, else read as 0xGUID or
  /// 0xGUID/PORT), or every one with `all`. Idempotent per part: a part named twice, a cable named by both
  /// ends, or a part not drained is removed once or listed in `already`, not an error. A cable the book
  /// holds by both ends (a hand-edited file) loses both lines, both listed in `changed`. Errors, nothing
  /// removed: kInvalidInput for a name not understood, or for `all` with names or neither; kIo when the
  /// file is not written.
  Result<DrainChange> undrain(const Topology* topo, std::span<const std::string> texts, bool all);

  /// The drains load() read that `topo` (a discovered fabric) cannot apply, to log: one warning for every
  /// node GUID no node of the fabric has, "PATH: N drain(s) name a GUID ... (PATH:LINE GUID port P, ... the
  /// first kUnknownListed, and M more)" (kept: a switch powered off for maintenance comes back drained), then
  /// one per line "PATH:LINE: " naming the part for a port the node does not have or a CA named whole (port
  /// 0); a line whose part was undrained since is not named. Such drains drain nothing; the other lines
  /// hold. Once per load(): later calls return nothing (the daemon asks after its first sweep that
  /// discovers). Linear in the lines read.
  std::vector<std::string> check_loaded(const Topology& topo);

  const std::vector<DrainRecord>& records() const { return records_; }
  /// The file (state_dir/drained), "" for a book in memory only.
  const std::string& path() const { return path_; }
  /// The parts, as SweepRunner::set_drain_requests takes them.
  std::vector<PortKey> parts() const;

 private:
  Status save(const std::vector<DrainRecord>& records) const;

  std::string path_;
  std::vector<DrainRecord> records_;
  /// Why the last load() could not read the file ("" when it could).
  std::string unreadable_;
  /// What load() read, with the line of each, until check_loaded has looked at it.
  std::vector<std::pair<PortKey, unsigned>> loaded_;
};

/// Whether `records` take the SM's own port out of LID routing on `topo` (topo.sm_node/sm_port): its cable
/// named by either end, or the switch it is cabled to. Returns "the SM's own port 0x... (desc) port N" or
/// "the SM's own switch 0x... (desc)", "" when none does (or `topo` has no SM node). With it drained the SM
/// reaches no port by LID: the PerfMgr polls nothing (perf_target.h lid_reachable) until it is undrained.
std::string sm_own_drain(const Topology& topo, std::span<const DrainRecord> records);

/// "switch 0x... (desc)" or "cable 0x... (desc) port N" for a record, named on `topo` when it has the node.
std::string describe_drain(const Topology* topo, const DrainRecord& record);

}  // namespace smd
