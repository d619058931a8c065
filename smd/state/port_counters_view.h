// PerfView: what the PerfMgr last read from every port's PMA (IBA 16.1: PortCounters, PortCountersExtended),
// as plain data, published whole (std::shared_ptr<const PerfView>) for `smctl counters` and the Prometheus
// endpoint. Counter names are the IBA's (and perfquery's); deltas are per PerfMgr interval.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// The PortCounters error and congestion counters (IBA 16.1.3.5, table 247), in CounterSelect bit order
/// (PortXmitWait is CounterSelect2 bit 0).
enum class PortCounter : std::uint8_t {
  kSymbolError,
  kLinkErrorRecovery,
  kLinkDowned,
  kPortRcvErrors,
  kPortRcvRemotePhysicalErrors,
  kPortRcvSwitchRelayErrors,
  kPortXmitDiscards,
  kPortXmitConstraintErrors,
  kPortRcvConstraintErrors,
  kLocalLinkIntegrityErrors,
  kExcessiveBufferOverrunErrors,
  kVL15Dropped,
  kPortXmitWait,
};
inline constexpr std::size_t kPortCounterCount = 13;
using CounterArray = std::array<std::uint64_t, kPortCounterCount>;

/// The data counters: PortCountersExtended's 64-bit ones (IBA 16.1.4.11), or PortCounters' 32-bit ones on a
/// port whose PMA has no extended counters. Data counters are in octets here (the wire counts 4-octet words).
enum class DataCounter : std::uint8_t { kXmitData, kRcvData, kXmitPkts, kRcvPkts };
inline constexpr std::size_t kDataCounterCount = 4;
using DataArray = std::array<std::uint64_t, kDataCounterCount>;

/// One counter's names and its width on the wire (a counter at its all-ones value is saturated: IBA
/// 16.1.3.5 says the error counters stop there).
struct CounterInfo {
  const char* iba_name;  ///< "SymbolErrorCounter", as IBA and perfquery name it
  const char* metric;    ///< Prometheus stem: smd_port_<metric>_total
  unsigned width_bits;
};

inline constexpr std::array<CounterInfo, kPortCounterCount> kPortCounterInfo = {{
    {"SymbolErrorCounter", "symbol_errors", 16},
    {"LinkErrorRecoveryCounter", "link_error_recoveries", 8},
    {"LinkDownedCounter", "link_downed", 8},
    {"PortRcvErrors", "rcv_errors", 16},
    {"PortRcvRemotePhysicalErrors", "rcv_remote_physical_errors", 16},
    {"PortRcvSwitchRelayErrors", "rcv_switch_relay_errors", 16},
    {"PortXmitDiscards", "xmit_discards", 16},
    {"PortXmitConstraintErrors", "xmit_constraint_errors", 8},
    {"PortRcvConstraintErrors", "rcv_constraint_errors", 8},
    {"LocalLinkIntegrityErrors", "local_link_integrity_errors", 4},
    {"ExcessiveBufferOverrunErrors", "excessive_buffer_overrun_errors", 4},
    {"VL15Dropped", "vl15_dropped", 16},
    {"PortXmitWait", "xmit_wait", 32},
}};

inline const CounterInfo& counter_info(PortCounter c) { return kPortCounterInfo[static_cast<std::size_t>(c)]; }

/// True for the counters that say a cable or port is bad (every one but PortXmitWait, which is congestion).
inline constexpr bool is_error_counter(PortCounter c) { return c != PortCounter::kPortXmitWait; }

/// One port as the PerfMgr last read it.
struct PortCounterRow {
  PortKey key;
  Guid port_guid = 0;
  Lid lid = 0;                  ///< where its PMA was asked (a switch's port-0 LID)
  std::string node_desc;        ///< the node's display name (NodeNames: mapped name, else NodeDescription)
  std::string peer;             ///< "<peer's display name> port <n>" ("" when uncabled)
  bool extended = false;        ///< data counters came from PortCountersExtended
  CounterArray raw{};           ///< values as last read
  CounterArray total{};         ///< sum of the deltas since smd first read the port (resets and wraps folded in)
  CounterArray last_delta{};    ///< in the last interval
  DataArray data_total{};       ///< octets / packets since smd first read the port
  DataArray data_rate{};        ///< per second over the last interval (octets/s, packets/s)
  std::uint32_t saturated = 0;  ///< bit i: counter i was found at its all-ones value in the last pass
  std::uint64_t resets = 0;     ///< PortCounters Sets that cleared saturated counters
  std::chrono::system_clock::time_point read_at{};
  /// Any error counter (is_error_counter) moved in the last interval.
  bool errors_in_last_interval() const {
    for (std::size_t i = 0; i < kPortCounterCount; ++i) {
      if (is_error_counter(static_cast<PortCounter>(i)) && last_delta[i] != 0) return true;
    }
    return false;
  }
};

/// What one counter pass cost and found.
struct PerfPassStats {
  std::uint64_t mads_sent = 0;  ///< ClassPortInfo, PortCounters, PortCountersExtended Gets and Sets
  std::uint64_t timeouts = 0;   ///< MADs that never answered after their retries
  std::uint64_t errors = 0;     ///< answers with a non-zero MAD status
  std::uint64_t resets = 0;     ///< PortCounters Sets sent to clear saturated counters
  std::uint64_t ports = 0;      ///< ports read
  /// Cabled ports not polled: their node is drained or isolated (or a CA port's cable is), so no LID route
  /// reaches their PMA (perfmgr/perf_target.h lid_reachable).
  std::uint64_t unreachable = 0;
  double wall_ms = 0;           ///< first send to last answer, pauses for sweeps included
  double cpu_ms = 0;            ///< the PerfMgr thread's CPU time reading the counters (metrics rendering excluded)
  double paused_ms = 0;         ///< of wall_ms, time spent waiting for a sweep to end
};

struct PerfView {
  std::vector<PortCounterRow> ports;  ///< sorted by key
  std::uint64_t passes = 0;           ///< completed passes
  PerfPassStats last_pass;
  std::chrono::system_clock::time_point last_pass_end{};
  double interval_s = 0;                               ///< perfmgr.interval
  std::uint64_t clears = 0;                            ///< `smctl perfmgr clear`s applied since the PerfMgr started
  std::chrono::system_clock::time_point cleared_at{};  ///< the last of them (epoch: none)
  /// The per-port Prometheus families of this view, rendered once on the PerfMgr's thread (null: render
  /// them per scrape). On the 1728-host tree they are 26 MB: rendering them on the SM's thread at every
  /// scrape would hold up a repair for hundreds of milliseconds.
  std::shared_ptr<const std::string> metrics_text;
};

/// A port the health rules marked unhealthy (smctl ports --unhealthy).
struct UnhealthyPortView {
  PortKey key;
  std::string node_desc;    ///< the node's display name (NodeNames)
  std::string dr_path;      ///< "0,1,3" to the node
  std::string peer;         ///< "<peer's display name> port <n>"
  std::string reason;       ///< "SymbolErrorCounter +57 in 10 s (threshold 10)" or "5 link flaps in 600 s"
  bool isolated = false;    ///< routes go around its cable
  std::string kept_reason;  ///< why it is not isolated ("would cut off ..."), "" when isolated or isolation is off
  unsigned flaps = 0;       ///< link-down events in the flap window
  std::chrono::system_clock::time_point since{};
  /// health.babbling_port: the port babbles (traps 129-131); `disabled_end` is the link end the SM disabled
  /// ("" while the disable is pending or was refused; the reason says which).
  bool babbling = false;
  std::string disabled_end;  ///< "0x.../3 (disabled)" or "0x.../3 (disable pending)"
};

}  // namespace smd
