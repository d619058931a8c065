// MadChannel: the raw send/receive seam under UmadTransport. UmadPort implements it with libibumad;
// unit tests implement it in memory to drive the transport's window, timers and TID matching.
#pragma once

#include <cerrno>
#include <cstdint>
#include <span>
#include <string>

#include "mad/codec/smp.h"
#include "routing/base/status.h"

namespace smd::mad {

/// Where a MAD came from / goes to, host byte order (the umad address, ib_mad_addr_t).
struct MadAddress {
  std::uint16_t lid = 0;   ///< source LID of a received MAD (0xFFFF for directed route)
  std::uint32_t qpn = 0;   ///< 0 for SMPs, 1 for GSI classes
  std::uint32_t qkey = 0;  ///< 0x80010000 for GSI
  std::uint8_t sl = 0;
  std::uint8_t path_bits = 0;
  std::uint16_t pkey_index = 0;
};

/// Low 32 bits of the TransactionID of the NodeInfo Get a port sends itself to wake its receive thread at
/// shutdown (MadChannel::wake_receiver). Only a stopping transport looks for it.
inline constexpr std::uint32_t kWakeReceiverTid = 0xFFFFFFFF;

/// umad status of a MAD handed back unanswered: ETIMEDOUT (unroutable under ibsim, or the kernel's
/// send timeout on real hardware).
inline constexpr int kUmadStatusTimeout = 110;

class MadChannel {
 public:
  virtual ~MadChannel() = default;
  /// Send one MAD to `to` on the agent of its management class (byte 1). `timeout_ms` > 0 asks the
  /// kernel to expect a response (it then matches the response to this send); 0 for responses/traps.
  /// Returns 0, or -errno (-EINVAL when no agent is registered for the class).
  virtual int send(std::span<const std::uint8_t, kMadSize> mad, const MadAddress& to, unsigned timeout_ms) = 0;
  /// Send a GMP of any length (at least its 56-byte SA header; an RMPP transfer, which the kernel segments
  /// when the class was registered with RMPP). Safe to call from any thread, concurrently with send():
  /// the SA thread answers through it. Returns 0 or -errno. The default refuses (-EINVAL).
  virtual int send_gmp(std::span<const std::uint8_t> mad, const MadAddress& to) {
    (void)mad;
    (void)to;
    return -EINVAL;
  }
  /// Wait up to `timeout_ms` for one MAD. Returns 1 with `mad`, `from` and the umad `status` filled,
  /// 0 on timeout, -errno on error. Called from one thread only (the transport's receive thread).
  virtual int receive(std::span<std::uint8_t, kMadSize> mad, MadAddress& from, int& status, int timeout_ms) = 0;
  /// "mlx5_0 port 1 (guid ..., lid ...)" for logs and errors.
  virtual std::string describe() const = 0;
  /// Release the port. Idempotent; no send/receive may be running.
  virtual void close() = 0;
  /// Make a receive() that is waiting now return soon (shutdown: the transport's receive thread then sees
  /// its stop flag instead of waiting out its poll timeout) by sending a MAD whose answer carries
  /// kWakeReceiverTid. Returns true when that MAD went out, so its answer is still to come: the receive
  /// thread then keeps receiving until it has it, and nothing answers into a closed port (ibsim's shim
  /// dereferences a null queue when a MAD arrives for an agent already unregistered). Best effort; the
  /// default sends nothing and returns false, and receive() still returns at its timeout.
  virtual bool wake_receiver() { return false; }
  /// Make the port advertise IsSM (PortInfo:CapabilityMask bit 1) again, when something cleared it while
  /// this SM holds the port. Errors: kTransport when the port cannot (the default: a test channel).
  virtual Status renew_is_sm() { return make_error(ErrorCode::kTransport, describe() + ": cannot set IsSM"); }
};

}  // namespace smd::mad
