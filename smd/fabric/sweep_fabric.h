// SweepFabric: one sweep's knowledge of the fabric, kept in its two sources. `observed` is what
// discovery read and is never edited; `acknowledged` is what the SMAs answered to this sweep's own Sets
// (and the read-backs after a Set whose answer was lost). Later phases read the merged view: the latest
// acknowledged value of a port or switch when there is one, else the observed one. When the next sweep
// starts from this one (a re-sweep of what failed, an incremental sweep), known() folds the two into the
// observation it starts from.
#pragma once

#include <optional>
#include <vector>

#include "smd/fabric/observed.h"

namespace smd {

class SweepFabric {
 public:
  SweepFabric() = default;
  explicit SweepFabric(ObservedFabric observed);

  const ObservedFabric& observed() const { return observed_; }
  const Topology& topo() const { return *observed_.topo; }
  /// The directed route to port `p`'s SMA, as discovery found it.
  const mad::DrPath& port_path(NodeIndex n, PortNum p) const { return observed_.port_path(n, p); }
  /// PortInfo attribute modifier for port `p` of node `n`, bit 31 included where the port takes it
  /// (ObservedFabric::port_info_mod).
  std::uint32_t port_info_mod(NodeIndex n, PortNum p) const { return observed_.port_info_mod(n, p); }

  /// The PortInfo port `p` of node `n` holds as far as the SM knows: the last acknowledged one, else the
  /// observed one; null when it was never read or its state became unknown (forget_port()).
  const mad::PortInfo* port_info(NodeIndex n, PortNum p) const;
  /// The SwitchInfo switch `n` holds as far as the SM knows (null: never read).
  const mad::SwitchInfo* switch_info(NodeIndex n) const;

  /// Port `p` of node `n` answered a Set (or a read-back) with `pi`.
  void acknowledge_port(NodeIndex n, PortNum p, const mad::PortInfo& pi);
  /// A Set to port `p` may or may not have been carried out and reading it back failed: its state is
  /// unknown until the next sweep reads it again.
  void forget_port(NodeIndex n, PortNum p);
  /// Switch `n` answered a SwitchInfo Set with `si`.
  void acknowledge_switch(NodeIndex n, const mad::SwitchInfo& si);

  /// The observation a following sweep starts from: observed records with every acknowledged value in
  /// place and forgotten ports unread. Leaves this object empty.
  ObservedFabric known() &&;

 private:
  // What one port answered since discovery: nothing, a PortInfo, or "unknown now".
  struct PortAck {
    enum class Kind : std::uint8_t { kNone, kHolds, kUnknown } kind = Kind::kNone;
    mad::PortInfo port_info;
  };
  ObservedFabric observed_;
  std::vector<std::vector<PortAck>> port_acks_;              // [node][port]
  std::vector<std::optional<mad::SwitchInfo>> switch_acks_;  // [node]
};

}  // namespace smd
