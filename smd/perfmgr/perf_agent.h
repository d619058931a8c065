// PerfAgent: the Performance Manager's thread (IBA 16.1). Every perfmgr.interval it reads PortCounters and,
// where the node's PMA ClassPortInfo says it has them, PortCountersExtended of every PerfTarget: LID-routed
// GMPs on QP1 (class 0x04) sent through the transport's thread-safe send_gmp, answered into its own queue
// by the receive thread (UmadTransport's pma_sink). Its own window (perfmgr.max_outstanding), timers and
// retries; nothing goes through the SM's io_context, and while the SM runs a sweep (set_sweeping) it sends
// nothing new, so a counter pass never competes with a sweep for ibsim's or the fabric's MAD capacity.
//
// Each pass folds its readings into a CounterStore (deltas, wrap, saturation), clears saturated counters
// with a PortCounters Set when the policy says so, publishes a PerfView (one atomic shared_ptr, read without
// a lock by metrics and smctl) and hands the ports whose error counters moved to the SM (PassSink).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "config/policy.h"
#include "mad/transport/gmp_thread.h"
#include "mad/transport/gmp_window.h"
#include "mad/transport/mad_channel.h"
#include "smd/perfmgr/counter_store.h"
#include "smd/perfmgr/perf_target.h"
#include "smd/perfmgr/pma_redirect.h"
#include "smd/state/port_counters_view.h"

namespace smd {

/// One port whose counters moved in a pass: its deltas, over how long.
struct MovedPort {
  PortKey key;
  CounterArray delta{};
  double elapsed_s = 0;  ///< since the previous reading of the port (an interval, or more after a gap)
};

/// What one pass found that the health rules read: every port whose counters moved.
struct PerfPassDeltas {
  std::vector<MovedPort> moved;
};

class PerfAgent {
 public:
  /// Sends one MAD (thread-safe; UmadTransport::send_gmp). Returns 0 or -errno.
  using Sender = std::function<int(std::span<const std::uint8_t> mad, const mad::MadAddress& to)>;
  /// Takes each pass's deltas (every pass, even when nothing moved); called on the PerfMgr thread (post it to
  /// the SM's thread).
  using PassSink = std::function<void(PerfPassDeltas)>;
  /// Renders a view's metrics text (smd/control's render_perfmgr_metrics), on the PerfMgr thread.
  using Renderer = std::function<std::string(const PerfView&)>;

  PerfAgent(Sender sender, PassSink sink);
  /// stop().
  ~PerfAgent();
  PerfAgent(const PerfAgent&) = delete;
  PerfAgent& operator=(const PerfAgent&) = delete;

  /// The policy in effect (any thread); a changed interval applies from the next pass.
  void configure(const PerfMgrPolicy& policy);
  /// The ports to read from the next pass on (any thread). Ports no longer listed are forgotten.
  /// `unreachable`: cabled ports left out because no LID route reaches them (lid_reachable), for the status.
  void set_targets(std::vector<PerfTarget> targets, std::uint64_t unreachable = 0);
  /// The SM runs a sweep (true) or is done (false): no new MAD is sent meanwhile.
  void set_sweeping(bool sweeping);
  /// A PMA response from the receive thread. Cheap: copied into the queue.
  void submit(std::span<const std::uint8_t, mad::kMadSize> mad);
  /// Each published view carries `render(view)` as PerfView::metrics_text. Set before start().
  void set_renderer(Renderer render) { render_ = std::move(render); }
  /// Start the thread (idempotent); the first pass starts at once.
  void start();
  /// Stop and join the thread (idempotent). The last view stays readable.
  void stop();
  bool running() const { return worker_.running(); }
  /// `smctl perfmgr pass`: start the next pass now instead of at the end of the interval (any thread). A
  /// pass in progress finishes first; requests made meanwhile fold into one. The interval restarts from it.
  void request_pass();
  /// `smctl perfmgr clear`: zero the stored totals and rates (CounterStore::clear_totals) between passes and
  /// publish the cleared view (any thread); applied after a pass in progress.
  void request_clear();

  /// The last completed pass (never null; empty before the first).
  std::shared_ptr<const PerfView> view() const { return view_.load(); }

 private:
  /// One MAD queued or in flight (the GmpWindow keeps its attempts and deadline).
  struct Request {
    std::uint16_t attr = 0;
    mad::Method method = mad::Method::kGet;
    Lid lid = 0;               ///< the port's LID (the PMA's GSI)
    PmaRoute route;            ///< where it is sent: gsi_route(lid), or where the node's PMA redirected
    Guid node = 0;             ///< the node whose PMA answers (redirects are per node)
    bool redirected = false;   ///< already followed one redirect: a second is not followed (no loops)
    std::size_t target = 0;  ///< index into the pass's targets (for ClassPortInfo: any port of the node)
    std::array<std::uint8_t, 192> data{};
  };
  /// What one pass collects per target.
  struct PortProgress {
    bool have_counters = false;
    bool have_extended = false;
    bool failed = false;
    double read_s = 0;  ///< when the PortCounters answer came (steady clock, seconds)
    std::array<std::uint8_t, 192> counters{};
    std::array<std::uint8_t, 192> extended{};
  };
  /// An answer's MAD status and attribute data; kNoAnswer with no data when the request was given up.
  using OnAnswer = std::function<void(const Request&, std::uint16_t status, std::span<const std::uint8_t> data)>;
  class Link;  // the PerfMgr thread's side of window_ (perf_agent.cpp)

  void loop();
  void run_pass();
  /// The policy and targets under the lock.
  std::pair<PerfMgrPolicy, std::shared_ptr<const std::vector<PerfTarget>>> snapshot() const;
  /// Pass step 1: ClassPortInfo of every node not yet asked (kept across passes): whether its PMA has
  /// 64-bit counters.
  void read_capabilities(const std::vector<PerfTarget>& ports);
  /// Pass step 2: PortCounters of every port, and PortCountersExtended where the PMA has them.
  std::vector<PortProgress> read_counters(const std::vector<PerfTarget>& ports);
  /// Pass step 3: fold the readings into the store; the ports that moved, and a clearing Set queued for each
  /// port with saturated counters when the policy says so.
  PerfPassDeltas fold_readings(const std::vector<PerfTarget>& ports, const std::vector<PortProgress>& progress,
                               const PerfMgrPolicy& policy);
  /// Queue the PortCounters Set that clears the saturated counters `result` names on port `t`.
  void queue_clear(const PerfTarget& t, std::size_t target, const ReadingResult& result);
  /// Pass step 4: send the clearing Sets; a counter is cleared in the store only when its Set is answered.
  void clear_saturated(const std::vector<PerfTarget>& ports);
  /// Pass step 5: publish the view of the pass (rendered once here).
  void publish_pass(const PerfMgrPolicy& policy);
  /// A pass with no target but `unreachable` cabled ports out of LID reach (the SM's own port or switch
  /// drained or isolated): warn once, drop the stored counters, publish an empty pass carrying the count.
  void publish_unpolled(const PerfMgrPolicy& policy, std::uint64_t unreachable);
  /// Apply a requested clear: zero the store and publish a view of it (the PerfMgr thread).
  void clear_store();
  /// Send, receive and time out until every queued request is answered or given up; answers go to `on_answer`.
  void drain(const OnAnswer& on_answer);
  /// A request to port `target` (LID `lid`) of node `node`, routed where the node's PMA last redirected to.
  Request request_to(Guid node, Lid lid, std::size_t target) const;
  /// An answer with the redirect status: true when `r` was re-queued ahead of the rest to the route its
  /// ClassPortInfo `data` names (perfmgr.follow_redirect, once per request); false = answer it as failed.
  bool follow_redirect(Request r, std::span<const std::uint8_t> data, bool allowed);
  bool stopping() const { return worker_.stopping(); }

  Sender sender_;
  PassSink sink_;
  Renderer render_;

  PerfMgrPolicy policy_;
  std::shared_ptr<const std::vector<PerfTarget>> targets_;
  std::uint64_t unreachable_ = 0;  ///< set_targets' count, guarded as targets_
  std::atomic<bool> sweeping_{false};
  bool pass_requested_ = false;   // guarded by worker_.mutex()
  bool clear_requested_ = false;  // guarded by worker_.mutex()
  // The thread, its mutex (guards policy_, targets_, the two requests and the answers) and its wake-up.
  mad::GmpManagerThread worker_{4 * mad::kMadSize};

  // The PerfMgr thread's own state.
  CounterStore store_;
  std::map<Guid, std::uint16_t> capability_;  ///< node GUID -> PMA ClassPortInfo:CapabilityMask
  std::map<Guid, PmaRoute> redirect_;         ///< node GUID -> where its PMA redirected (until it times out)
  std::unique_ptr<Link> link_;
  std::unique_ptr<mad::GmpWindow<Request>> window_;
  PerfPassStats pass_;
  std::uint64_t passes_ = 0;
  bool unpolled_logged_ = false;  ///< the "nothing reachable" warning was logged; cleared when ports come back
  std::atomic<std::shared_ptr<const PerfView>> view_;
};

}  // namespace smd
