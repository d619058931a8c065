// TableCache: the P_Key, SL-to-VL and VL-arbitration tables the SA reads from the ports themselves, on
// demand, for PKeyTableRecord, SL2VLTableRecord and VLArbTableRecord (IBA vol. 1, 15.2.5.11/.12/.14).
// Those tables are not read by the sweep (it does not need them, and reading every port's would add
// thousands of SMPs to every bring-up); the first query that needs one sends a LID-routed Get of that
// block (TID bit kSaTidBit, so its answer comes back to the SA thread), later queries reuse the answer
// until a new fabric is published. At most kWindow reads are in flight; each is retried `retries` times
// after `timeout`; a block that never answers is given up and its record left out. SA-thread only.
#pragma once

#include <chrono>
#include <compare>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>

#include "mad/codec/smp.h"
#include "routing/base/ids.h"
#include "smd/sa/smp_retry_window.h"

namespace smd::sa {

/// One block of one table: the LID-routed SMP Get that reads it.
struct TableKey {
  Lid lid = 0;
  std::uint16_t attr = 0;  ///< SMP attribute: 0x16 P_KeyTable, 0x17 SLtoVLMappingTable, 0x18 VLArbitrationTable
  std::uint32_t attr_mod = 0;
  auto operator<=>(const TableKey&) const = default;
};

class TableCache {
 public:
  using Clock = std::chrono::steady_clock;
  /// Sends one 256-byte SMP to a LID (QP0); returns 0 or -errno.
  using Send = SaSmpSend;
  static constexpr std::size_t kWindow = 32;

  TableCache(Send send, std::uint64_t m_key, std::chrono::milliseconds timeout, unsigned retries);

  /// The block as read: its 64 bytes, nullopt while unknown (not asked, in flight) or given up (see gave_up).
  const mad::SmpData* find(const TableKey& key) const;
  bool gave_up(const TableKey& key) const { return failed_.count(key) != 0; }
  /// Ask for `key` unless it is known, in flight, waiting or given up. O(log keys): a query can name
  /// tens of thousands of blocks (SL2VLTableRecord with ComponentMask 0), each asked for again while it waits.
  void want(const TableKey& key);
  /// Neither in nor given up yet: a waiting query still needs it.
  bool pending(const TableKey& key) const { return !done_.count(key) && !failed_.count(key); }
  /// Send what waits, up to the window; re-send or give up what timed out. Returns the earliest deadline
  /// of what is in flight (nullopt: nothing is).
  std::optional<Clock::time_point> pump(Clock::time_point now);
  /// An SMP answer with kSaTidBit (any thread hands it to the SA thread first). True when it was one of ours.
  bool on_answer(std::span<const std::uint8_t, mad::kMadSize> mad);
  /// Forget everything (a new fabric was published: LIDs may have moved).
  void reset();
  /// Keys neither known nor given up.
  std::size_t outstanding() const { return in_flight_.size() + waiting_.size(); }

 private:
  struct NoPayload {};  // a Get's answer is all it needs

  std::map<TableKey, mad::SmpData> done_;
  std::map<TableKey, bool> failed_;
  SmpRetryWindow<TableKey, NoPayload> in_flight_;
  std::deque<TableKey> waiting_;     // asked for, not sent yet, in the order asked
  std::set<TableKey> waiting_keys_;  // the same keys, to find them
};

}  // namespace smd::sa
