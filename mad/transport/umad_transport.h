// UmadTransport: SmpTransport over libibumad (through MadChannel, normally a UmadPort). A bounded window
// of outstanding SMPs (FIFO queue behind it), one steady_timer per window slot for timeouts and retries,
// and a receive thread that blocks in umad_recv() and hands MADs to the io_context in batches (the ibsim
// shim's fd cannot be watched by epoll). The window's slots, their MAD buffers and timers are
// preallocated and reused, so an SMP in flight costs no allocation; only requests waiting behind a full
// window take queue storage (std::deque chunks).
//
// Threading: construct, submit(), send_*(), stop() and every accessor on the io_context thread (or while
// the io_context is not running). Completion callbacks and the unsolicited handler run there too.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "mad/transport/mad_channel.h"
#include "mad/transport/transport.h"
#include "routing/base/status.h"

namespace smd::mad {

/// Window slots are addressed by the low 6 bits of the TID, so the window is at most 64 — which is also
/// the most ibsim sustains (256 in flight collapses its throughput, 512 deadlocks it).
inline constexpr unsigned kMaxWindow = 64;

/// TID bit (of the low 32) that the transport never sets: SMPs sent around it (the SA's own table reads,
/// UmadTransport::send_gmp) carry it, and their answers go to the GmpSink instead of the window.
inline constexpr std::uint32_t kSaTidBit = 1u << 31;

struct UmadTransportOptions {
  unsigned window = 32;       ///< outstanding SMPs, clamped to 1..kMaxWindow
  unsigned timeout_ms = 200;  ///< per attempt
  unsigned retries = 3;       ///< re-sends after the first attempt (so up to retries+1 sends)
};

/// A MAD that answered none of our requests: a Trap, another SM's SMInfo Get/Set, an SA query, or a
/// response that came too late.
struct UnsolicitedInfo {
  MadAddress from;
  std::uint8_t mgmt_class = 0;
  std::uint8_t method = 0;
  std::uint16_t attr_id = 0;
  std::uint64_t tid = 0;
  int umad_status = 0;  ///< 0 normally; 110 = a MAD of ours came back unroutable
};

using UnsolicitedHandler = std::function<void(std::span<const std::uint8_t, kMadSize> mad, const UnsolicitedInfo&)>;

/// A receiver for every SA-class (0x03) MAD and every LID-routed SMP answer whose TID has kSaTidBit, called
/// on the receive thread itself, before the io_context sees
/// it: the SA answers off the SM's thread, so a query flood never queues behind (or in front of) a sweep's
/// SMPs. It must be cheap and thread-safe. `sm_idle` says that no SMP of this transport is outstanding at
/// that moment: the sink may then do a little work on the receive thread itself (it holds up no answer).
using GmpSink = std::function<void(std::span<const std::uint8_t, kMadSize> mad, const MadAddress& from, bool sm_idle)>;

class UmadTransport final : public SmpTransport {
 public:
  /// Takes the opened port (a UmadPort, or a test channel) and starts the receive thread. Non-null.
  /// `sa_sink`, when set, takes every class-0x03 MAD (see GmpSink); `pma_sink`, when set, every class-0x04
  /// (PerfMgt) response, the answers to the PerfMgr's own Gets and Sets. Both are fixed for the transport's
  /// life because the receive thread reads them. `cc_sink`, when set, takes every class-0x21 (Congestion
  /// Control) MAD: the answers to the CC manager's Gets and Sets, and its requests handed back unrouted.
  UmadTransport(boost::asio::io_context& io, std::unique_ptr<MadChannel> port, UmadTransportOptions options = {},
                GmpSink sa_sink = {}, GmpSink pma_sink = {}, GmpSink cc_sink = {});
  /// stop(), so every callback has run by the time the object is gone.
  ~UmadTransport() override;
  UmadTransport(const UmadTransport&) = delete;
  UmadTransport& operator=(const UmadTransport&) = delete;

  void submit(SmpRequest req, SmpCallback done) override;
  std::size_t pending() const override { return queue_.size() + active_; }
  TransportStats stats() const override { return stats_; }

  /// Send a GMP of any length from any thread (MadChannel::send_gmp). Returns 0 or -errno.
  int send_gmp(std::span<const std::uint8_t> mad, const MadAddress& to) { return port_->send_gmp(mad, to); }

  /// Receiver of unsolicited MADs; without one they are counted and dropped.
  void set_unsolicited_handler(UnsolicitedHandler handler) { unsolicited_ = std::move(handler); }
  /// Send `mad` (a GetResp built with make_smp_response, a TrapRepress, an SA response) back to where
  /// `to` came from; directed-route SMPs go out permissive, the SMI walks the return path. Not tracked:
  /// no timer, no retry. Errors: kTransport if umad_send fails or the class has no agent.
  Status send_response(const UnsolicitedInfo& to, std::span<const std::uint8_t, kMadSize> mad);
  /// Send any MAD to an explicit address, untracked (as send_response).
  Status send_raw(const MadAddress& to, std::span<const std::uint8_t, kMadSize> mad);

  /// Finish everything queued or outstanding with kCancelled (callbacks run inside this call), stop and
  /// join the receive thread, close the port. Idempotent; submit() after stop() completes kCancelled.
  void stop();

  /// The port advertises IsSM again (MadChannel::renew_is_sm). Call on the io_context thread.
  Status renew_is_sm() { return port_->renew_is_sm(); }

  unsigned window() const { return window_; }
  /// The port; describe() names it in logs.
  const MadChannel& port() const { return *port_; }

 private:
  struct Slot;
  struct Queued {
    SmpRequest req;
    SmpCallback done;
  };
  struct Received {
    std::array<std::uint8_t, kMadSize> mad;
    MadAddress from;
    int status;
  };

  void pump();
  void start_slot(Slot& slot, const SmpRequest& req, SmpCallback done);
  void send_attempt(Slot& slot);
  void attempt_failed(Slot& slot, std::uint32_t seq);
  void finish(Slot& slot, SmpOutcome outcome, std::uint16_t status, const std::uint8_t* data);
  Slot* match(std::uint32_t tid_low_bits, bool any_attempt);
  void receive_loop();
  void drain();
  void dispatch(const Received& r);

  boost::asio::io_context& io_;
  std::unique_ptr<MadChannel> port_;
  unsigned window_;
  unsigned timeout_ms_;
  unsigned retries_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<unsigned> free_slots_;
  std::size_t active_ = 0;
  std::atomic<std::size_t> in_flight_{0};  ///< active_, readable by the receive thread
  std::deque<Queued> queue_;
  std::uint32_t next_seq_ = 1;
  TransportStats stats_;
  UnsolicitedHandler unsolicited_;
  const GmpSink sa_sink_;
  const GmpSink pma_sink_;
  const GmpSink cc_sink_;
  bool stopped_ = false;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);

  // Receive side: the thread appends under rx_mutex_; one posted drain() at a time swaps the batch out.
  std::atomic<bool> rx_stop_{false};
  // stop()'s wake-up MAD: kWakeUnknown until stop() has tried to send it, then whether it went out.
  enum WakeState : int { kWakeUnknown, kWakeSent, kWakeNotSent };
  std::atomic<int> rx_wake_{kWakeUnknown};
  std::mutex rx_mutex_;
  std::vector<Received> rx_incoming_;
  std::vector<Received> rx_batch_;
  bool rx_drain_posted_ = false;
  std::thread rx_thread_;
};

}  // namespace smd::mad
