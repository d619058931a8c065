// AliasWriter: writes the alias GUIDs the SA holds into the ports' GUIDInfo tables (IBA vol. 1, 14.2.5.5):
// one LID-routed SMP Set(GUIDInfo) per (port, block), AttributeModifier = the block, the whole block as the
// SM wants it, retried after `timeout` up to `retries` times. The port's GetResp carries the block as it
// now holds it: "believed only when echoed" (the writer's rule elsewhere in smd), so each write ends as
// kHeld (the echo is what was written), kDiffers (the port holds something else: a port with fewer
// entries, or one that does not store aliases), kRefused (MAD status) or kTimeout.
//
// OpenSM answers a GUIDInfoRecord Set from its own table and queues this write (osm_queue_guidinfo); so
// does smd: the SA answer is the SA's table, the write follows on the SA thread. Its SMPs carry TID bits
// kSaTidBit | kSaWriteTidBit so their answers come back to the SA thread apart from TableCache's Gets.
// SA-thread only.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "mad/codec/smp.h"
#include "routing/base/ids.h"
#include "smd/sa/smp_retry_window.h"

namespace smd::sa {

class AliasWriter {
 public:
  using Clock = std::chrono::steady_clock;
  /// Sends one 256-byte SMP to a LID (QP0); returns 0 or -errno.
  using Send = SaSmpSend;
  static constexpr std::size_t kWindow = 16;

  /// How one write ended.
  struct Outcome {
    enum class Kind : std::uint8_t { kHeld, kDiffers, kRefused, kTimeout };
    Kind kind = Kind::kTimeout;
    Guid port = 0;
    Lid lid = 0;
    unsigned block = 0;
    std::array<Guid, 8> wanted{};
    std::array<Guid, 8> held{};  ///< the echo (kHeld, kDiffers)
    std::uint16_t status = 0;    ///< kRefused: the MAD status
  };

  AliasWriter(Send send, std::uint64_t m_key, std::chrono::milliseconds timeout, unsigned retries);

  /// Write `guids` as block `block` of the port `port` at LID `lid`. A write of the same (port, block)
  /// still queued is replaced; one in flight is sent again with the new block when it ends.
  void write(Guid port, Lid lid, unsigned block, const std::array<Guid, 8>& guids);
  /// Send what waits, up to the window; re-send or give up what timed out. The earliest deadline of what
  /// is in flight (nullopt: nothing is).
  std::optional<Clock::time_point> pump(Clock::time_point now);
  /// An SMP answer with kSaTidBit | kSaWriteTidBit. True when it was one of ours.
  bool on_answer(std::span<const std::uint8_t, mad::kMadSize> mad);
  /// The writes that ended since the last call.
  std::vector<Outcome> take_outcomes() { return std::exchange(outcomes_, {}); }
  /// Writes queued or in flight.
  std::size_t outstanding() const { return queued_.size() + in_flight_.size(); }

 private:
  using Key = std::pair<Guid, unsigned>;  // (port GUID, block)
  struct Write {
    Lid lid = 0;
    std::array<Guid, 8> guids{};
  };
  void finish(const Key& key, const Write& write, Outcome o);

  std::map<Key, Write> queued_;
  std::deque<Key> order_;  // queued_ keys in the order first queued
  SmpRetryWindow<Key, Write> in_flight_;
  std::vector<Outcome> outcomes_;
};

}  // namespace smd::sa
