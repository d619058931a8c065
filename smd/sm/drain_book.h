// DrainBook: the operator's drains (`smctl drain`, `smctl undrain`; issue 46 item 3). A drain names switches
// or cables as routing/whatif/drain_target.h reads them; the book resolves the names on the fabric of the
// last sweep, refuses a drain that would separate two CA ports that reach each other now (unless forced),
// records the parts by GUID in state_dir/drained (smd/state/drain_file.h) and lists them. The Daemon hands
// parts() to the sweep (SweepRunner::set_drain_requests), where drains and health isolation meet
// (routing/isolation/routed_topology.h).
//
// Nothing is half-done: a refused or failed request (bad name, cut-off pair, the file not written) leaves
// the book and the file as they were.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "smd/state/drain_file.h"

namespace smd {

/// What one drain or undrain request changed.
struct DrainChange {
  std::vector<DrainRecord> changed;  ///< recorded (drain) or removed (undrain) by this request
  std::vector<DrainRecord> already;  ///< drain: named but recorded before, left as they were
  /// drain --force: the first CA pair the drains separate, "0x... (a) port 1 and 0x... (b) port 1"; "" = none.
  std::string separated;
};

class DrainBook {
 public:
  /// `path` = the file (state_dir/drained); "" keeps the book in memory only.
  explicit DrainBook(std::string path) : path_(std::move(path)) {}

  /// Read the file (a missing one is no drain). Returns the file's problems (bad lines, skipped), to log.
  /// Errors: kIo when the file cannot be read; the book is then empty.
  Result<std::vector<std::string>> load();

  /// Record `texts` (switch or cable names, drain_target.h) resolved on `topo`. Refused, nothing recorded:
  /// kInvalidInput for a name that does not resolve (the resolver's message) and, unless `force`, when the
  /// drains recorded plus these would separate a pair of CA ports the recorded ones leave connected
  /// ("would cut off ... : nothing drained; --force drains anyway"); kIo when the file is not written.
  Result<DrainChange> drain(const Topology& topo, std::span<const std::string> texts, bool force);

  /// Remove the drains `texts` name (resolved on `topo` when it has them, else read as 0xGUID or
  /// 0xGUID/PORT), or every one with `all`. Errors, nothing removed: kInvalidInput for a name that is not
  /// recorded or not understood, or for `all` with names; kIo when the file is not written.
  Result<DrainChange> undrain(const Topology* topo, std::span<const std::string> texts, bool all);

  const std::vector<DrainRecord>& records() const { return records_; }
  /// The parts, as SweepRunner::set_drain_requests takes them.
  std::vector<PortKey> parts() const;

 private:
  Status save(const std::vector<DrainRecord>& records) const;

  std::string path_;
  std::vector<DrainRecord> records_;
};

/// "switch 0x... (desc)" or "cable 0x... (desc) port N" for a record, named on `topo` when it has the node.
std::string describe_drain(const Topology* topo, const DrainRecord& record);

}  // namespace smd
