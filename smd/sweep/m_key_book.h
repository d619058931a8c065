// MKeyBook: which M_Key each port holds, for the SMPs of every sweep (IBA 14.2.4). It answers
// mad::MKeyTransport's question "which keys may the port at the end of this directed route hold?" by
// walking the path over the cables it knows (state_dir/neighbors, refreshed by every discovery) to the
// port's GUID, then listing, most likely first: the key that port was last seen or set to hold
// (state_dir/guid2mkey), the key security.m_key gives it now (derived per port with
// security.m_key_per_port), security.m_key itself, and the same for every earlier security.m_key of this
// process (a policy reload that changed the key). A port that answers none of them has a key smd does not
// know: it is logged with its node GUID and directed path; at protection level 1 it refuses our Sets, at
// 2 and 3 every SMP, until its M_KeyLeasePeriod runs out (the protection bits drop to 0, the port answers
// again and shows its key), and the next sweep then writes a fresh key (smd/program/port_plan.cpp).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/policy.h"
#include "mad/transport/m_key_transport.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/state/m_key_files.h"

namespace smd {

class MKeyBook final : public mad::MKeyLookup {
 public:
  /// The keys from now on. A changed security.m_key is kept as an earlier one, tried after the new.
  void set_policy(const SecurityPolicy& security);
  /// At the start of every sweep: forget the unknown-key paths of the last one; the first time only, read
  /// state_dir/guid2mkey and state_dir/neighbors. A file that cannot be read is logged and never replaced
  /// by this process; bad lines are logged and skipped.
  void begin_sweep(const std::string& state_dir);
  /// What a sweep's fabric says: its cables (merged into the neighbors) and the keys its ports showed or
  /// acknowledged (a port with no key and no protection leaves guid2mkey).
  void learn(const SweepFabric& fabric);
  /// Write the two files when they changed since this process last wrote them, and only once smd uses
  /// or has seen an M_Key. Errors are logged (the next sweep tries again).
  void save(const std::string& state_dir);

  /// The port a directed route ends at, as the known cables say; nullopt when they do not reach it.
  std::optional<MKeyHop> resolve(const mad::DrPath& path) const;
  const Guid2MKey& keys() const { return guid2mkey_; }
  const MKeyNeighbors& neighbors() const { return neighbors_; }
  /// Directed paths (as "0,1,3") whose port answered none of the candidate keys in this (or the last) sweep.
  const std::set<std::string>& unknown_key_paths() const { return unknown_paths_; }

  std::vector<std::uint64_t> keys_for(const mad::DrPath& path) override;
  void key_answered(const mad::DrPath& path, std::uint64_t key) override;
  void keys_exhausted(const mad::DrPath& path, const std::vector<std::uint64_t>& tried) override;

 private:
  std::uint64_t secret_ = 0;
  bool per_port_ = false;
  std::vector<std::uint64_t> earlier_secrets_;  // newest first
  Guid2MKey guid2mkey_;
  MKeyNeighbors neighbors_;
  bool loaded_ = false;
  bool guid2mkey_refused_ = false, neighbors_refused_ = false;  // unreadable: the operator's to look at
  std::optional<std::string> guid2mkey_written_, neighbors_written_;
  std::set<std::string> unknown_paths_;
};

}  // namespace smd
