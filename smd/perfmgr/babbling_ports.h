// BabblingPorts: the trap-rate rule of health.babbling_port (OpenSM's babbling_port_policy). A port whose
// link keeps failing makes its SMA send traps 129 (LocalLinkIntegrityErrors over threshold), 130
// (ExcessiveBufferOverrunErrors over threshold) or 131 (flow control update watchdog), over and over; past a
// rate the SM disables the link (smd/program/port_disable.h) rather than answer a trap storm forever.
//
// The rule: a port babbles when `traps` of these traps naming it (LIDADDR, PORTNO) arrive within `window`
// (sliding: the traps of the last `window` seconds, the oldest dropped as time passes). OpenSM counts the
// same trap repeated with gaps under 5 s (60 s once it has seen 10) and disables at the 251st; smd counts
// any of the three per port in a fixed window instead, so the rate that babbles is stated and does not drift
// with the spacing (defaults 250 in 60 s, config/policy.h). A babbling port stays so until clear() (the
// operator's smctl port clear, or a reload that turns the rule off): its later traps are not counted.
//
// Pure: no I/O, times are passed in (steady_clock), not thread-safe (one owner, the SM's thread). Memory: at
// most `traps` times per port that sent one in the window.
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "smd/state/port_counters_view.h"

namespace smd {

/// health.babbling_traps / babbling_window.
struct BabblingRule {
  unsigned traps = 250;                  ///< traps within the window that make a port babble (>= 1)
  std::chrono::seconds window{60};
};

/// A port found babbling.
struct Babbler {
  std::string reason;                              ///< "250 traps 129-131 in 60 s (last: 130)"
  std::chrono::steady_clock::time_point since;     ///< when it crossed the rate
};

class BabblingPorts {
 public:
  explicit BabblingPorts(BabblingRule rule);
  /// A policy reload: the new rule applies from the next record(); babblers stay.
  void set_rule(BabblingRule rule);

  /// One trap `trap_number` (129, 130 or 131) naming port `key` at `now`. Returns the port's Babbler when
  /// this trap makes it babble; nullopt otherwise (also for a port already babbling).
  std::optional<Babbler> record(const PortKey& key, std::uint16_t trap_number, std::chrono::steady_clock::time_point now);

  /// Traps of `key` within the window ending at `now` (0 for a babbler: its traps are no longer counted).
  unsigned traps_in_window(const PortKey& key, std::chrono::steady_clock::time_point now) const;

  /// The port babbles no more (its link was enabled again): forgotten, its count starts from zero. False when
  /// it was not babbling.
  bool clear(const PortKey& key);
  /// Every babbler forgotten (the rule was turned off); returns them, sorted.
  std::vector<PortKey> clear_all();

  const std::map<PortKey, Babbler>& babblers() const { return babblers_; }

 private:
  BabblingRule rule_;
  std::map<PortKey, std::deque<std::chrono::steady_clock::time_point>> recent_;
  std::map<PortKey, Babbler> babblers_;
};

/// The port a trap 129-131 names: LIDADDR `lid` (a switch's LID, or a CA port's), PORTNO `port`, as
/// (node GUID, port); nullopt when no node holds the LID or the node has no such port.
std::optional<PortKey> trap_port(const Topology& topo, const LidMap& lids, Lid lid, PortNum port);

}  // namespace smd
