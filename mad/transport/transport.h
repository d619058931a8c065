// SmpTransport: asynchronous SMP requests with a bounded window, per-request timers and retries.
// Completions are delivered on the owner's Boost.Asio io_context thread.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "mad/codec/smp.h"

namespace smd::mad {

/// How a request ended.
enum class SmpOutcome : std::uint8_t {
  kOk,         ///< GetResp with status 0
  kBadStatus,  ///< GetResp with a non-zero MAD status (see SmpReply::status)
  kTimeout,    ///< no answer after every retry (or umad status 110 on each attempt: unroutable)
  kSendError,  ///< umad_send failed
  kCancelled,  ///< transport stopped before an answer came
};

const char* to_string(SmpOutcome outcome);

struct SmpReply {
  SmpOutcome outcome = SmpOutcome::kTimeout;
  std::uint16_t status = 0;  ///< MAD status (D bit masked) when outcome is kOk or kBadStatus
  SmpData data{};            ///< attribute payload of the response
  unsigned attempts = 0;     ///< sends made, 1 = answered first time
};

/// Why a request did not end kOk, for logs and problem reports: "MAD status 0x001c" or
/// "timeout after 4 attempts".
std::string describe_failure(const SmpReply& reply);

using SmpCallback = std::function<void(const SmpReply&)>;

/// Counters since the transport was opened.
struct TransportStats {
  std::uint64_t sent = 0;         ///< umad_send calls, retries included
  std::uint64_t received = 0;     ///< matched responses
  std::uint64_t retries = 0;      ///< re-sends after a timeout
  std::uint64_t timeouts = 0;     ///< requests that failed after all retries
  std::uint64_t unsolicited = 0;  ///< MADs received that matched no request
  std::uint64_t send_errors = 0;  ///< umad_send calls that failed (counted in `sent` too)
};

class SmpTransport {
 public:
  virtual ~SmpTransport() = default;
  /// Queue a request; at most window() are outstanding, the rest wait in FIFO order.
  /// `done` runs exactly once, on the io_context thread.
  virtual void submit(SmpRequest req, SmpCallback done) = 0;
  /// Requests queued or outstanding.
  virtual std::size_t pending() const = 0;
  virtual TransportStats stats() const = 0;
};

}  // namespace smd::mad
