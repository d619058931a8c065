// SmpRetryWindow: the retry/timeout core of the SA's own LID-routed SMPs (TableCache's Gets, AliasWriter's
// GUIDInfo Sets). Each key has at most one SMP in flight; a timed-out one is sent again with a new TID (so
// a late answer to the old one matches nothing) until `retries` re-sends are spent, then given up. What to
// send, which keys wait and what an answer means stay with the caller. SA-thread only.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "mad/codec/smp.h"
#include "mad/transport/umad_transport.h"
#include "routing/base/ids.h"

namespace smd::sa {

/// TID bit of the SA's SMP Sets (AliasWriter, beside kSaTidBit): TableCache's Gets never carry it.
inline constexpr std::uint32_t kSaWriteTidBit = 1u << 30;

/// Sends one 256-byte SMP to a LID (QP0); returns 0 or -errno.
using SaSmpSend = std::function<int(std::span<const std::uint8_t, mad::kMadSize> smp, Lid to)>;

/// In-flight SMPs by Key (ordered: std::map), each carrying the caller's Payload back with its answer or
/// its give-up. `tid_bits` (kSaTidBit, plus kSaWriteTidBit for Sets) are set in every TID so the receive
/// thread routes answers to the SA and the two users' answers apart; the counter below them wraps past 0.
template <class Key, class Payload>
class SmpRetryWindow {
 public:
  using Clock = std::chrono::steady_clock;

  SmpRetryWindow(SaSmpSend send, std::uint32_t tid_bits, std::uint64_t m_key, std::chrono::milliseconds timeout,
                 unsigned retries)
      : send_(std::move(send)), tid_bits_(tid_bits), m_key_(m_key), timeout_(timeout), retries_(retries) {}

  /// Send `req` LID-routed to `to` (its dlid and m_key are filled in here) for `key`, not in flight.
  void start(const Key& key, Lid to, mad::SmpRequest req, Payload payload, Clock::time_point now) {
    req.dlid = to;
    req.m_key = m_key_;
    InFlight& f = in_flight_[key];
    f.to = to;
    f.request = req;
    f.payload = std::move(payload);
    send(key, f, now);
  }

  /// Re-send what timed out; hand back (key, payload) of each one whose re-sends are spent, in key order.
  std::vector<std::pair<Key, Payload>> expire(Clock::time_point now) {
    std::vector<Key> expired;
    for (const auto& [key, f] : in_flight_) {
      if (f.deadline <= now) expired.push_back(key);
    }
    std::vector<std::pair<Key, Payload>> gave_up;
    for (const Key& key : expired) {
      InFlight& f = in_flight_.at(key);
      if (f.attempts > retries_) {
        by_tid_.erase(f.tid);
        gave_up.emplace_back(key, std::move(f.payload));
        in_flight_.erase(key);
      } else {
        send(key, f, now);
      }
    }
    return gave_up;
  }

  /// The (key, payload) this answer ends, taken out of the window; nullopt when its TID is not in flight
  /// (not ours, or ours but late: re-sent since or given up).
  std::optional<std::pair<Key, Payload>> take_answer(std::span<const std::uint8_t, mad::kMadSize> mad) {
    const auto it = by_tid_.find(mad::tid_low(mad::mad_tid(mad)));
    if (it == by_tid_.end()) return std::nullopt;
    const Key key = it->second;
    by_tid_.erase(it);
    const auto f = in_flight_.find(key);
    std::pair<Key, Payload> out{key, std::move(f->second.payload)};
    in_flight_.erase(f);
    return out;
  }

  /// The earliest deadline of what is in flight (nullopt: nothing is).
  std::optional<Clock::time_point> earliest_deadline() const {
    std::optional<Clock::time_point> earliest;
    for (const auto& [key, f] : in_flight_) {
      if (!earliest || f.deadline < *earliest) earliest = f.deadline;
    }
    return earliest;
  }

  bool contains(const Key& key) const { return in_flight_.count(key) != 0; }
  std::size_t size() const { return in_flight_.size(); }
  /// Forget what is in flight; answers to it will match nothing.
  void clear() {
    in_flight_.clear();
    by_tid_.clear();
  }

 private:
  struct InFlight {
    Lid to = 0;
    mad::SmpRequest request;
    Payload payload{};
    std::uint32_t tid = 0;
    unsigned attempts = 0;
    Clock::time_point deadline;
  };

  void send(const Key& key, InFlight& f, Clock::time_point now) {
    constexpr std::uint32_t kCounterMask = ~(mad::kSaTidBit | kSaWriteTidBit);
    if (f.tid != 0) by_tid_.erase(f.tid);
    f.tid = tid_bits_ | (next_tid_++ & kCounterMask);
    if ((next_tid_ & kCounterMask) == 0) next_tid_ = 1;
    by_tid_[f.tid] = key;
    ++f.attempts;
    f.deadline = now + timeout_;
    std::array<std::uint8_t, mad::kMadSize> smp{};
    mad::encode_smp(f.request, f.tid, smp);
    (void)send_(smp, f.to);  // a failed send is a lost answer: the deadline re-sends it
  }

  SaSmpSend send_;
  std::uint32_t tid_bits_;
  std::uint64_t m_key_;
  std::chrono::milliseconds timeout_;
  unsigned retries_;
  std::map<Key, InFlight> in_flight_;
  std::map<std::uint32_t, Key> by_tid_;
  std::uint32_t next_tid_ = 1;
};

}  // namespace smd::sa
