// sa_port: sa_client's MAD transport on one libibumad port, and a window of outstanding SA
// transactions over it with sa_client's own timeouts and retries (the umad2sim shim ignores umad_send's).
// Responses are matched on the low 32 bits of the TID only: ibsim and its shim overwrite bits 32-63.
// Single-threaded: pump() receives with a short umad_recv timeout (the shim's fd cannot be polled).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tests/integration/sa_client/sa_wire.h"

namespace sa_client {

using Clock = std::chrono::steady_clock;

// What umad_get_port says about the local port.
struct PortInfo {
  std::string ca;
  int port = 0;
  uint16_t lid = 0, sm_lid = 0;
  uint64_t prefix = 0, guid = 0;  // host order
};

// One MAD as received, with its source address and umad status (110 = could not be routed).
struct Received {
  Mad mad{};
  int status = 0;
  uint16_t src_lid = 0;
  uint32_t src_qpn = 0;
  uint32_t qkey = 0;
  int length = 0;  // what umad_recv reported
};

// The umad port: open, class registrations, send and receive of 256-byte MADs.
class UmadPort {
 public:
  // Opens the first port (SIM_HOST picks the node under the shim); throws std::runtime_error.
  UmadPort();
  ~UmadPort();
  UmadPort(const UmadPort&) = delete;
  UmadPort& operator=(const UmadPort&) = delete;

  const PortInfo& info() const { return info_; }
  // Sends one MAD to (dlid, qpn) with qkey; false when umad_send refuses it.
  bool send(const Mad& mad, uint16_t dlid, uint32_t qpn, uint32_t qkey);
  // Waits up to timeout_ms for one MAD.
  std::optional<Received> recv(int timeout_ms);
  // Opens the port's issm device (after every registration): under ibsim only an issm client is handed
  // unsolicited requests such as Reports. On real hardware it also sets the port's IsSM bit.
  void open_issm();

 private:
  PortInfo info_;
  int fd_ = -1;
  int issm_fd_ = -1;
  int sa_agent_ = -1;
  std::vector<uint8_t> buf_;
};

// The outcome of one transaction: the answer, or none after every try timed out.
struct Outcome {
  std::optional<Received> answer;
  bool unroutable = false;  // the shim returned the request with status 110
  int64_t latency_us = 0;   // from the last send to the answer
  int tries = 0;
};

// A window of outstanding SA requests to the SM (QPN 1, QKey 0x80010000).
class Transactions {
 public:
  using Done = std::function<void(const Outcome&)>;
  using Unsolicited = std::function<void(const Received&)>;

  Transactions(UmadPort& port, uint16_t sm_lid, int timeout_ms, int retries);

  // Sends mad (its TID's low 32 bits are replaced by a fresh one); done runs once, from pump().
  void submit(Mad mad, Done done);
  // Receives for at most max_wait_ms, handles answers and expiries.
  void pump(int max_wait_ms);
  // Called for Report and other requests that reach this client.
  void on_unsolicited(Unsolicited cb) { unsolicited_ = std::move(cb); }
  std::size_t outstanding() const { return pending_.size(); }
  uint64_t stray_answers() const { return stray_; }

 private:
  struct Pending {
    Mad mad;
    Clock::time_point sent;
    int tries = 0;
    Done done;
  };
  void transmit(Pending& p);
  void expire();
  void deliver(const Received& r);

  UmadPort& port_;
  uint16_t sm_lid_;
  std::chrono::milliseconds timeout_;
  int retries_;
  uint32_t next_tid_;
  std::map<uint32_t, Pending> pending_;
  Unsolicited unsolicited_;
  uint64_t stray_ = 0;
};

inline constexpr uint32_t kGsiQkey = 0x80010000;

}  // namespace sa_client
