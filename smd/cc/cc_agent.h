// CcAgent: the congestion-control manager's thread (IBA Annex A10). After a sweep that brought the subnet up,
// the SM hands it the switches and CA ports (request_pass); the thread reads each one's CC settings, plans the
// Sets that differ from the policy (cc_plan.h), sends them and believes a Set only when its GetResp echoes it.
// CC MADs are LID-routed GMPs on QP1 (class 0x21, the policy's CC_Key in each), sent through the transport's
// thread-safe send_gmp and answered into this thread's queue by the receive thread (UmadTransport's cc_sink),
// the path the PerfMgr's PMA MADs take. Its own window (congestion_control.max_outstanding), timers and
// retries; while the SM runs a sweep (set_sweeping) nothing new is sent.
//
// A Set is held only when a Get after it shows it: an echo alone can be the request reflected (ibsim
// answers CC Sets to CAs so and stores nothing). Every pass reads before it writes, so a switch that was reset (it
// reads all zero again) or is new is written on the pass after the sweep that found it, and a node that holds the
// policy gets no Set.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "config/cc_policy.h"
#include "mad/transport/gmp_thread.h"
#include "mad/transport/gmp_window.h"
#include "mad/transport/mad_channel.h"
#include "smd/cc/cc_plan.h"

namespace smd {

/// What the last pass did (log lines and smctl/metrics read it).
struct CcPassStats {
  std::uint64_t passes = 0;  ///< passes completed since start
  unsigned switches = 0;     ///< switch targets of the last pass
  unsigned ca_ports = 0;     ///< CA port targets of the last pass
  unsigned reads = 0;        ///< Gets of the read phase answered with status 0
  unsigned unanswered = 0;   ///< Gets and Sets with no status-0 answer after their retries
  unsigned sets = 0;         ///< Sets sent (the plan's size)
  unsigned believed = 0;     ///< Sets whose GetResp echoed what was written
  unsigned not_echoed = 0;   ///< Sets answered with status 0 but showing something else
  unsigned held = 0;         ///< echoed Sets that a later Get shows held
  unsigned not_held = 0;     ///< echoed Sets that a later Get shows not held (an agent that reflects)
  unsigned mads = 0;         ///< MADs sent, retries included
  double wall_ms = 0;
};

class CcAgent {
 public:
  /// Sends one MAD (thread-safe; UmadTransport::send_gmp). Returns 0 or -errno.
  using Sender = std::function<int(std::span<const std::uint8_t> mad, const mad::MadAddress& to)>;

  explicit CcAgent(Sender sender);
  /// stop().
  ~CcAgent();
  CcAgent(const CcAgent&) = delete;
  CcAgent& operator=(const CcAgent&) = delete;

  /// The policy in effect (any thread); applies from the next pass.
  void configure(const CongestionControlPolicy& policy);
  /// Program `targets` on the thread's next pass (any thread). A request made while a pass runs replaces any
  /// earlier waiting one: only the newest fabric is programmed.
  void request_pass(std::vector<CcTarget> targets);
  /// The SM runs a sweep (true) or is done (false): no new MAD is sent meanwhile.
  void set_sweeping(bool sweeping) { sweeping_.store(sweeping, std::memory_order_relaxed); }
  /// A class-0x21 MAD from the receive thread. Cheap: copied into the queue.
  void submit(std::span<const std::uint8_t, mad::kMadSize> mad);
  /// Start the thread (idempotent).
  void start();
  /// Stop and join the thread (idempotent); a pass in progress is abandoned.
  void stop();
  bool running() const { return worker_.running(); }
  /// The last completed pass (any thread).
  CcPassStats last_pass() const;
  /// Block until `passes` passes have completed or `timeout` passes; true when they have (tests).
  bool wait_for_passes(std::uint64_t passes, std::chrono::milliseconds timeout) const;

 private:
  /// One CC MAD queued or in flight (the GmpWindow keeps its attempts and deadline).
  struct Request {
    std::size_t target = 0;
    mad::Method method = mad::Method::kGet;
    std::uint16_t attr = 0;
    std::uint32_t mod = 0;
    mad::CcData data{};
    std::size_t write = 0;  ///< Sets: index into the plan
  };
  using Answer = std::function<void(const Request&, std::optional<std::span<const std::uint8_t>> data)>;
  class Link;  // the thread's side of window_ (cc_agent.cpp)

  void loop();
  void run_pass(const std::vector<CcTarget>& targets, const CongestionControlPolicy& policy);
  /// Pass step 1: what every agent holds, and a CA's CCT blocks up to its ControlTableCap.
  std::vector<CcReading> read_settings(const std::vector<CcTarget>& targets, const CongestionControlPolicy& policy);
  /// Pass step 2: send the plan's Sets; the echoed ones come back as Gets to read them back.
  std::vector<Request> write_plan(const std::vector<CcTarget>& targets, const std::vector<CcWrite>& plan);
  /// Pass step 3: read back the echoed Sets (an echo can be the request reflected: held only when a Get shows it).
  void verify_plan(const std::vector<CcTarget>& targets, const std::vector<CcWrite>& plan,
                   const std::vector<Request>& reads);
  /// Publish the pass's statistics and log its line.
  void finish_pass(std::chrono::steady_clock::time_point started);
  /// Send, receive and time out until every queued request is answered (data) or given up (nullopt).
  void drain(const std::vector<CcTarget>& targets, const Answer& on_answer);
  bool stopping() const { return worker_.stopping(); }

  Sender sender_;
  CongestionControlPolicy policy_;
  std::optional<std::vector<CcTarget>> pending_;
  CcPassStats stats_;
  std::atomic<bool> sweeping_{false};
  // The thread, its mutex (guards policy_, pending_, stats_ and the answers) and its wake-up.
  mad::GmpManagerThread worker_{4096};

  // The thread's own state.
  std::unique_ptr<Link> link_;
  std::unique_ptr<mad::GmpWindow<Request>> window_;
  CcPassStats pass_;
};

}  // namespace smd
