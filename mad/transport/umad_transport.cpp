// UmadTransport: window, timers, retries, TID matching and the receive thread (see umad_transport.h).
//
// TID layout (low 32 bits only; the kernel and ibsim overwrite bits 32..63): bits 0..5 = window slot,
// bits 6..30 = a sequence number that changes on every attempt, bit 31 = 0 (kSaTidBit: the SA's own SMPs
// set it, and their answers go to the SA sink). A response to an earlier attempt of the
// same request is still accepted (it is an answer); a timeout report (umad status 110) counts only
// against the attempt it belongs to.
#include "mad/transport/umad_transport.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>

#include "mad/codec/bits.h"
#include "mad/codec/cc.h"

namespace smd::mad {

namespace {
constexpr unsigned kSlotBits = 6;
constexpr std::uint32_t kSlotMask = (1u << kSlotBits) - 1;
constexpr std::uint32_t kSeqMask = (1u << (31 - kSlotBits)) - 1;
constexpr int kRecvPollMs = 100;
// How long a stopping receive thread waits for the answer to the wake-up MAD (it is lost, or the port
// never answers) before it gives up and lets the port close.
constexpr int kStopDrainMs = 250;
constexpr std::size_t kRxReserve = 256;
constexpr std::uint8_t kResponseBit = 0x80;
constexpr std::uint32_t kPermissive = 0xFFFF;
constexpr std::size_t kTidOffset = 8;  // TransactionID, IBA 13.4.2

std::uint32_t tid_of(std::uint32_t seq, unsigned slot) { return ((seq & kSeqMask) << kSlotBits) | slot; }

// Whether `mad` answers stop()'s wake-up NodeInfo (MadChannel::wake_receiver).
bool is_wake_answer(const std::array<std::uint8_t, kMadSize>& mad) {
  return mad[1] == kClassSmiDirect && (mad[3] & kResponseBit) != 0 && tid_low(mad_tid(mad)) == kWakeReceiverTid;
}
}  // namespace

// One window slot: owns a MAD buffer and a timer, reused for every request it carries.
struct UmadTransport::Slot {
  Slot(boost::asio::io_context& io, unsigned i) : index(i), timer(io) {}
  unsigned index;
  bool busy = false;
  std::uint32_t first_seq = 0;  // seq of the first attempt
  std::uint32_t seq = 0;        // seq of the current attempt
  unsigned attempts = 0;
  std::uint16_t attr_id = 0;
  std::uint32_t attr_mod = 0;
  SmpCallback done;
  std::array<std::uint8_t, kMadSize> mad{};
  MadAddress to;
  boost::asio::steady_timer timer;
};

UmadTransport::UmadTransport(boost::asio::io_context& io, std::unique_ptr<MadChannel> port,
                             UmadTransportOptions options, GmpSink sa_sink, GmpSink pma_sink, GmpSink cc_sink)
    : io_(io),
      port_(std::move(port)),
      window_(std::clamp(options.window, 1u, kMaxWindow)),
      timeout_ms_(std::max(options.timeout_ms, 1u)),
      retries_(options.retries),
      sa_sink_(std::move(sa_sink)),
      pma_sink_(std::move(pma_sink)),
      cc_sink_(std::move(cc_sink)) {
  slots_.reserve(window_);
  for (unsigned i = 0; i < window_; ++i) {
    slots_.push_back(std::make_unique<Slot>(io_, i));
    free_slots_.push_back(window_ - 1 - i);  // pop_back hands out slot 0 first
  }
  rx_incoming_.reserve(kRxReserve);
  rx_batch_.reserve(kRxReserve);
  rx_thread_ = std::thread([this] { receive_loop(); });
  pthread_setname_np(rx_thread_.native_handle(), "smd-umad-rx");
}

UmadTransport::~UmadTransport() {
  stop();
  *alive_ = false;
}

void UmadTransport::submit(SmpRequest req, SmpCallback done) {
  if (stopped_) {
    boost::asio::post(io_, [done = std::move(done)] {
      SmpReply r;
      r.outcome = SmpOutcome::kCancelled;
      done(r);
    });
    return;
  }
  queue_.push_back(Queued{std::move(req), std::move(done)});
  pump();
}

// Fill free slots from the head of the queue (FIFO).
void UmadTransport::pump() {
  while (!stopped_ && !free_slots_.empty() && !queue_.empty()) {
    Slot& slot = *slots_[free_slots_.back()];
    free_slots_.pop_back();
    ++active_;
    in_flight_.fetch_add(1, std::memory_order_relaxed);
    Queued q = std::move(queue_.front());
    queue_.pop_front();
    start_slot(slot, q.req, std::move(q.done));
  }
}

void UmadTransport::start_slot(Slot& slot, const SmpRequest& req, SmpCallback done) {
  slot.busy = true;
  slot.done = std::move(done);
  slot.attempts = 0;
  slot.attr_id = req.attr_id;
  slot.attr_mod = req.attr_mod;
  slot.first_seq = next_seq_ & kSeqMask;
  encode_smp(req, 0, slot.mad);
  // Directed route leaves with the permissive DLID; LID routed goes to the target LID. Both on QP0.
  slot.to = MadAddress{};
  slot.to.lid = static_cast<std::uint16_t>(req.dlid ? *req.dlid : kPermissive);
  send_attempt(slot);
}

void UmadTransport::send_attempt(Slot& slot) {
  slot.seq = next_seq_++ & kSeqMask;
  ++slot.attempts;
  const std::uint32_t tid = tid_of(slot.seq, slot.index);
  bits::put64(slot.mad.data(), kTidOffset, tid);
  // timeout > 0 so that the kernel matches the response to this send (real hardware).
  const int rc = port_->send(slot.mad, slot.to, timeout_ms_);
  ++stats_.sent;
  if (rc < 0) {
    ++stats_.send_errors;
    spdlog::debug("smp tid {:#x} attr {:#06x} mod {}: umad_send failed: {}", tid, slot.attr_id, slot.attr_mod,
                  std::strerror(-rc));
    // Finish from a fresh handler so a failing submit() never runs its callback re-entrantly.
    const std::uint32_t seq = slot.seq;
    boost::asio::post(io_, [this, alive = alive_, &slot, seq] {
      if (*alive && slot.busy && slot.seq == seq) finish(slot, SmpOutcome::kSendError, 0, nullptr);
    });
    return;
  }
  spdlog::debug("smp tid {:#x} attr {:#06x} mod {} sent (attempt {})", tid, slot.attr_id, slot.attr_mod, slot.attempts);
  slot.timer.expires_after(std::chrono::milliseconds(timeout_ms_));
  const std::uint32_t seq = slot.seq;
  slot.timer.async_wait([this, alive = alive_, &slot, seq](const boost::system::error_code& ec) {
    if (ec || !*alive) return;
    if (slot.busy && slot.seq == seq) attempt_failed(slot, seq);
  });
}

// No answer (timer) or unroutable (status 110) for the current attempt: retry or give up.
void UmadTransport::attempt_failed(Slot& slot, std::uint32_t seq) {
  if (!slot.busy || slot.seq != seq) return;
  slot.timer.cancel();
  if (slot.attempts <= retries_) {
    ++stats_.retries;
    send_attempt(slot);
    return;
  }
  ++stats_.timeouts;
  finish(slot, SmpOutcome::kTimeout, 0, nullptr);
}

void UmadTransport::finish(Slot& slot, SmpOutcome outcome, std::uint16_t status, const std::uint8_t* data) {
  slot.timer.cancel();
  SmpReply reply;
  reply.outcome = outcome;
  reply.status = status;
  reply.attempts = slot.attempts;
  if (data != nullptr) std::memcpy(reply.data.data(), data, kSmpDataSize);
  SmpCallback done = std::move(slot.done);
  slot.done = nullptr;
  slot.busy = false;
  free_slots_.push_back(slot.index);
  --active_;
  in_flight_.fetch_sub(1, std::memory_order_relaxed);
  if (done) done(reply);
  pump();
}

// The slot whose request this TID belongs to. any_attempt: accept every attempt of the request (an
// answer is an answer); otherwise only the current one (a timeout report for a superseded send is stale).
UmadTransport::Slot* UmadTransport::match(std::uint32_t tid_low_bits, bool any_attempt) {
  const unsigned index = tid_low_bits & kSlotMask;
  if (index >= slots_.size()) return nullptr;
  Slot& slot = *slots_[index];
  if (!slot.busy) return nullptr;
  const std::uint32_t seq = tid_low_bits >> kSlotBits;
  if (!any_attempt) return seq == slot.seq ? &slot : nullptr;
  const std::uint32_t since_first = (seq - slot.first_seq) & kSeqMask;
  const std::uint32_t span = (slot.seq - slot.first_seq) & kSeqMask;
  return since_first <= span ? &slot : nullptr;
}

void UmadTransport::receive_loop() {
  Received r{};
  std::optional<std::chrono::steady_clock::time_point> drain_until;
  while (true) {
    const int rc = port_->receive(r.mad, r.from, r.status, kRecvPollMs);
    if (rx_stop_.load()) {
      // Stopping: everything received is dropped, but the thread stays until the wake-up's answer is in.
      // The port answers in order, so by then every answer to an earlier send has been taken off the
      // port too, and close() cannot leave one arriving for an agent that is gone.
      if (rc > 0 && is_wake_answer(r.mad)) break;
      if (rx_wake_.load() == kWakeNotSent || (rc < 0 && rc != -EINTR && rc != -EAGAIN)) break;
      const auto now = std::chrono::steady_clock::now();
      if (!drain_until) drain_until = now + std::chrono::milliseconds(kStopDrainMs);
      if (now >= *drain_until) break;
      continue;
    }
    if (rc == 0) continue;
    if (rc < 0) {
      if (rc != -EINTR && rc != -EAGAIN) {
        spdlog::warn("{}: receive failed: {}", port_->describe(), std::strerror(-rc));
        std::this_thread::sleep_for(std::chrono::milliseconds(10));  // do not spin on a broken port
      }
      continue;
    }
    // SA queries, and the answers to the SMPs the SA sends itself (TID bit 31), go to the SA's thread.
    const bool sa_smp_answer =
        r.mad[1] == kClassSmiLid && (r.mad[3] & kResponseBit) != 0 && (tid_low(mad_tid(r.mad)) & kSaTidBit) != 0;
    if (sa_sink_ && (r.mad[1] == kClassSubnAdm || sa_smp_answer) && r.status == 0) {
      sa_sink_(r.mad, r.from, in_flight_.load(std::memory_order_relaxed) == 0);
      continue;
    }
    // The PerfMgr's answers go to its thread; a PMA request from elsewhere is not ours to answer (the HCA's
    // own PMA does) and falls through to be counted as unsolicited.
    if (pma_sink_ && r.mad[1] == kClassPerfMgt && (r.mad[3] & kResponseBit) != 0) {
      pma_sink_(r.mad, r.from, in_flight_.load(std::memory_order_relaxed) == 0);
      continue;
    }
    // The CC manager's answers, and its own requests handed back unrouted, go to its thread. A MAD handed back
    // with a non-zero umad status (ETIMEDOUT: no route, or no agent under ibsim) is the request itself and
    // may carry any method bits: it reaches the sink with the response bit cleared, so it is never taken for
    // an agent's answer that echoes a Set.
    if (cc_sink_ && r.mad[1] == kClassCongestionControl) {
      if (r.status != 0) r.mad[3] &= static_cast<std::uint8_t>(~kResponseBit);
      cc_sink_(r.mad, r.from, in_flight_.load(std::memory_order_relaxed) == 0);
      continue;
    }
    bool post = false;
    {
      std::lock_guard lock(rx_mutex_);
      rx_incoming_.push_back(r);
      post = !rx_drain_posted_;
      rx_drain_posted_ = true;
    }
    if (post)
      boost::asio::post(io_, [this, alive = alive_] {
        if (*alive) drain();
      });
  }
}

void UmadTransport::drain() {
  {
    std::lock_guard lock(rx_mutex_);
    rx_batch_.swap(rx_incoming_);
    rx_drain_posted_ = false;
  }
  for (const Received& r : rx_batch_) {
    if (stopped_) break;
    dispatch(r);
  }
  rx_batch_.clear();
}

void UmadTransport::dispatch(const Received& r) {
  const std::span<const std::uint8_t, kMadSize> mad(r.mad);
  const std::uint8_t mgmt_class = r.mad[1];
  const std::uint8_t method = r.mad[3];
  const std::uint32_t tid = tid_low(mad_tid(mad));
  const bool smp = mgmt_class == kClassSmiDirect || mgmt_class == kClassSmiLid;
  if (smp && r.status != 0) {
    // Our own request handed back with an error: 110 (ETIMEDOUT) = unroutable under ibsim, or the
    // kernel's own send timeout. Counts as a failed attempt now rather than at our timer.
    if (Slot* slot = match(tid, false)) {
      spdlog::debug("smp tid {:#x} attr {:#06x} mod {}: umad status {}{}", tid, slot->attr_id, slot->attr_mod, r.status,
                    r.status == kUmadStatusTimeout ? " (unroutable)" : "");
      attempt_failed(*slot, slot->seq);
      return;
    }
  } else if (smp && r.status == 0 && (method & kResponseBit) != 0) {
    const auto header = decode_smp_header(mad);
    if (!header) {
      // A malformed answer (HopCount above 63) proves nothing; the request's timer retries it.
      spdlog::debug("smp tid {:#x}: malformed response dropped", tid);
      ++stats_.unsolicited;
      return;
    }
    if (Slot* slot = match(tid, true)) {
      ++stats_.received;
      spdlog::debug("smp tid {:#x} attr {:#06x} mod {}: response status {:#x}", tid, slot->attr_id, slot->attr_mod,
                    header->status);
      finish(*slot, header->status == 0 ? SmpOutcome::kOk : SmpOutcome::kBadStatus, header->status, r.mad.data() + 64);
      return;
    }
  }
  ++stats_.unsolicited;
  UnsolicitedInfo info;
  info.from = r.from;
  info.mgmt_class = mgmt_class;
  info.method = method;
  info.attr_id = bits::get16(r.mad.data(), 16);
  info.tid = mad_tid(mad);
  info.umad_status = r.status;
  spdlog::debug("unsolicited MAD class {:#04x} method {:#04x} attr {:#06x} from lid {} status {}", mgmt_class, method,
                info.attr_id, info.from.lid, r.status);
  if (unsolicited_) unsolicited_(mad, info);
}

Status UmadTransport::send_response(const UnsolicitedInfo& to, std::span<const std::uint8_t, kMadSize> mad) {
  MadAddress dest = to.from;
  if (to.mgmt_class == kClassSmiDirect) dest.lid = kPermissive;
  if (to.mgmt_class == kClassSmiDirect || to.mgmt_class == kClassSmiLid) {
    dest.qpn = 0;
    dest.qkey = 0;
  }
  return send_raw(dest, mad);
}

Status UmadTransport::send_raw(const MadAddress& to, std::span<const std::uint8_t, kMadSize> mad) {
  if (stopped_) return make_error(ErrorCode::kTransport, port_->describe() + ": transport stopped");
  const int rc = port_->send(mad, to, 0);
  ++stats_.sent;
  if (rc < 0) {
    ++stats_.send_errors;
    return make_error(ErrorCode::kTransport, port_->describe() + ": send of class " + std::to_string(mad[1]) +
                                                 " to lid " + std::to_string(to.lid) +
                                                 " failed: " + std::strerror(-rc));
  }
  return Ok{};
}

void UmadTransport::stop() {
  if (stopped_) return;
  stopped_ = true;
  // Queued first, in order, then outstanding: every callback exactly once, with kCancelled.
  std::deque<Queued> queued;
  queued.swap(queue_);
  for (auto& q : queued) {
    SmpReply r;
    r.outcome = SmpOutcome::kCancelled;
    if (q.done) q.done(r);
  }
  for (auto& slot : slots_) {
    if (slot->busy) finish(*slot, SmpOutcome::kCancelled, 0, nullptr);
  }
  rx_stop_.store(true);
  // Without this the join waits out the receive poll (up to kRecvPollMs): a tenth of a second on every exit.
  // The flag is set first, so the wake-up's answer always finds the thread stopping (receive_loop).
  if (rx_thread_.joinable()) rx_wake_.store(port_->wake_receiver() ? kWakeSent : kWakeNotSent);
  if (rx_thread_.joinable()) rx_thread_.join();
  port_->close();
}

}  // namespace smd::mad
