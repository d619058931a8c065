// CounterStore: every port's counters across PerfMgr passes (issue 19). It turns raw PMA reads into the
// deltas the health rules judge, the totals `smctl counters` and Prometheus show (monotonic: clears,
// saturation and wraps folded in), and the data rates; and says which saturated counters a PortCounters
// Set should clear. Pure: no I/O, no clock (times come with the reading); not thread-safe (the PerfMgr
// thread owns it and publishes rows() as a PerfView).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "routing/base/ids.h"
#include "smd/state/port_counters_view.h"

namespace smd {

/// One port's PMA read, as the PerfMgr thread decoded it (data counters already in octets / packets).
struct PortReading {
  PortKey key;
  Guid port_guid = 0;
  Lid lid = 0;
  std::string node_desc;
  std::string peer;
  CounterArray counters{};  ///< raw values, smd::PortCounter order
  DataArray data{};         ///< raw data counters (octets = 4 * wire words; packets)
  /// Data from PortCountersExtended (64-bit, wrapping) else PortCounters (32-bit, wrapping at 2^32: the
  /// octet counters at 2^34 octets, since the wire counts 4-octet words).
  bool extended = false;
  double t_s = 0;                                ///< monotonic seconds of the read (for rates)
  std::chrono::system_clock::time_point wall{};  ///< for PortCounterRow::read_at
};

/// What one reading changed.
struct ReadingResult {
  /// Increase since the previous reading of this port (all zero on the first reading: it is the baseline).
  CounterArray delta{};
  bool first = false;           ///< no previous reading (new port, or one that came back after it was forgotten)
  double elapsed_s = 0;         ///< since the previous reading of this port (0 on the first)
  std::uint32_t saturated = 0;  ///< bit i: counter i at its all-ones value now
  /// CounterSelect / CounterSelect2 bits (IBA table 247) of the saturated counters: what a PortCounters Set
  /// sends to clear them when the caller's policy resets.
  std::uint16_t reset_select = 0;
  std::uint8_t reset_select2 = 0;
};

/// PortCounters CounterSelect bits (IBA 16.1.3.5, table 247): bit i for error counter i of PortCounter
/// order (SymbolErrorCounter .. VL15Dropped, bits 0..11), bits 12..15 for XmitData, RcvData, XmitPkts,
/// RcvPkts; CounterSelect2 bit 0 for PortXmitWait.
inline constexpr unsigned kDataCounterSelectShift = 12;
inline constexpr std::uint8_t kSelect2XmitWait = 0x01;

/// The CounterSelect/CounterSelect2 bits for the counters in `mask` (bit i = PortCounter i).
struct CounterSelectBits {
  std::uint16_t select = 0;
  std::uint8_t select2 = 0;
};
CounterSelectBits counter_select_bits(std::uint32_t mask);

class CounterStore {
 public:
  /// Fold in one reading; keeps totals (sum of deltas), last_delta, data rates (delta / (t_s - previous
  /// t_s); 0 when the time did not advance), the saturated mask. Error counters are kSaturating at their
  /// kPortCounterInfo width (PortXmitWait included); data counters wrap. A port whose data source changed
  /// (extended <-> legacy) takes its data counters as a new baseline.
  ReadingResult apply(const PortReading& r);
  /// The caller's PortCounters Set cleared the counters in `select`/`select2` on `key`: their baseline
  /// becomes 0 (the next reading's value is the whole increase), and PortCounterRow::resets counts it.
  /// Unknown ports are ignored.
  void cleared(const PortKey& key, std::uint16_t select, std::uint8_t select2);
  /// `smctl perfmgr clear` (OpenSM's console `perfmgr clear_counters`): every port's totals, last deltas, data
  /// totals and rates become 0. The baselines stay, so the next reading's delta is what moved since the last
  /// read; nothing is sent to the fabric (the ports' own counters are untouched, as with OpenSM).
  void clear_totals();
  /// Forget every port not in `present` (ports that left the fabric): a port that comes back starts with a
  /// new baseline. `present` may be unsorted. O((ports + present) log present).
  void retain(const std::vector<PortKey>& present);
  /// Every port, sorted by key.
  std::vector<PortCounterRow> rows() const;
  std::size_t size() const { return ports_.size(); }

 private:
  struct PortState {
    PortCounterRow row;     ///< what rows() returns
    CounterArray base{};    ///< error counters' baseline (raw, or 0 after a clear)
    DataArray data_base{};  ///< data counters' baseline
    double t_s = 0;
  };
  std::map<PortKey, PortState> ports_;
};

}  // namespace smd
