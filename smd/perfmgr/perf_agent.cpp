#include "smd/perfmgr/perf_agent.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>
#include <mutex>
#include <set>
#include <utility>

#include "mad/codec/pma.h"

namespace smd {

namespace {

using SteadyClock = std::chrono::steady_clock;

// The status an OnAnswer sees for a request given up (no MAD status has all bits set).
constexpr std::uint16_t kNoAnswer = 0xFFFF;

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double ms_between(SteadyClock::time_point a, SteadyClock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

double seconds_of(SteadyClock::time_point t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); }

CounterArray error_counters(const mad::PortCounters& pc) {
  CounterArray c{};
  auto set = [&](PortCounter which, std::uint64_t v) { c[static_cast<std::size_t>(which)] = v; };
  set(PortCounter::kSymbolError, pc.symbol_error);
  set(PortCounter::kLinkErrorRecovery, pc.link_error_recovery);
  set(PortCounter::kLinkDowned, pc.link_downed);
  set(PortCounter::kPortRcvErrors, pc.port_rcv_errors);
  set(PortCounter::kPortRcvRemotePhysicalErrors, pc.port_rcv_remote_physical_errors);
  set(PortCounter::kPortRcvSwitchRelayErrors, pc.port_rcv_switch_relay_errors);
  set(PortCounter::kPortXmitDiscards, pc.port_xmit_discards);
  set(PortCounter::kPortXmitConstraintErrors, pc.port_xmit_constraint_errors);
  set(PortCounter::kPortRcvConstraintErrors, pc.port_rcv_constraint_errors);
  set(PortCounter::kLocalLinkIntegrityErrors, pc.local_link_integrity_errors);
  set(PortCounter::kExcessiveBufferOverrunErrors, pc.excessive_buffer_overrun_errors);
  set(PortCounter::kVL15Dropped, pc.vl15_dropped);
  set(PortCounter::kPortXmitWait, pc.port_xmit_wait);
  return c;
}

}  // namespace

// The PerfMgr thread's side of its GmpWindow: PMA MADs through the Sender, answers from its GmpManagerThread's inbox.
class PerfAgent::Link final : public mad::GmpLink<Request> {
 public:
  explicit Link(PerfAgent& agent) : agent_(agent) {}
  bool stopping() const override { return agent_.stopping(); }
  bool paused() const override { return agent_.sweeping_.load(std::memory_order_relaxed); }
  mad::GmpLimits limits() const override {
    const std::lock_guard lock(agent_.worker_.mutex());
    const PerfMgrPolicy& p = agent_.policy_;
    return {p.max_outstanding, std::chrono::milliseconds(p.timeout_ms), p.retries};
  }
  int send(const Request& r, std::uint32_t tid) override {
    mad::MadAddress to;
    to.lid = r.route.lid;
    to.qpn = r.route.qpn;
    to.qkey = r.route.qkey;
    to.pkey_index = 0;  // redirect_route admits the default partition only
    ++agent_.pass_.mads_sent;
    return agent_.sender_(mad::make_pma_request(static_cast<std::uint8_t>(r.method), r.attr, tid, r.data), to);
  }
  void wait(Clock::time_point until, std::vector<Mad>& answers) override { agent_.worker_.take(until, answers); }
  std::optional<std::uint32_t> answer_tid(const Mad& mad) const override {
    const auto resp = mad::parse_pma_response(mad);
    if (!resp) return std::nullopt;
    return static_cast<std::uint32_t>(resp->tid);
  }
  void paused_for(double ms) override { agent_.pass_.paused_ms += ms; }

 private:
  PerfAgent& agent_;
};

PerfAgent::PerfAgent(Sender sender, PassSink sink)
    : sender_(std::move(sender)),
      sink_(std::move(sink)),
      link_(std::make_unique<Link>(*this)),
      window_(std::make_unique<mad::GmpWindow<Request>>(*link_)),
      view_(std::make_shared<const PerfView>()) {}

PerfAgent::~PerfAgent() { stop(); }

void PerfAgent::configure(const PerfMgrPolicy& policy) {
  worker_.post([&] { policy_ = policy; });
}

void PerfAgent::set_targets(std::vector<PerfTarget> targets, std::uint64_t unreachable) {
  auto shared = std::make_shared<const std::vector<PerfTarget>>(std::move(targets));
  const std::lock_guard lock(worker_.mutex());
  targets_ = std::move(shared);
  unreachable_ = unreachable;
}

void PerfAgent::set_sweeping(bool sweeping) { sweeping_.store(sweeping, std::memory_order_relaxed); }

void PerfAgent::submit(std::span<const std::uint8_t, mad::kMadSize> mad) { worker_.submit(mad); }

void PerfAgent::start() {
  worker_.start("smd-perfmgr", [this] { loop(); });
}

void PerfAgent::stop() { worker_.stop(); }

void PerfAgent::request_pass() {
  worker_.post([&] { pass_requested_ = true; });
}

void PerfAgent::request_clear() {
  worker_.post([&] { clear_requested_ = true; });
}

void PerfAgent::loop() {
  while (!stopping()) {
    const auto started = SteadyClock::now();
    run_pass();
    // The next pass is due an interval after this one began; a reload that shortens the interval (configure
    // wakes this wait) takes effect at once rather than after the old interval. A requested clear is applied
    // here, between passes, where the store is not being written; a requested pass starts at once.
    std::unique_lock lock(worker_.mutex());
    while (!stopping()) {
      if (clear_requested_) {
        clear_requested_ = false;
        lock.unlock();
        clear_store();
        lock.lock();
        continue;
      }
      if (pass_requested_) {
        pass_requested_ = false;
        break;
      }
      const auto due = started + std::chrono::seconds(policy_.interval_s);
      if (SteadyClock::now() >= due) break;
      worker_.wake().wait_until(lock, due);
    }
  }
}

void PerfAgent::clear_store() {
  store_.clear_totals();
  auto view = std::make_shared<PerfView>(*view_.load());
  view->ports = store_.rows();
  ++view->clears;
  view->cleared_at = std::chrono::system_clock::now();
  if (render_) view->metrics_text = std::make_shared<const std::string>(render_(*view));
  view_.store(std::move(view));
  spdlog::info("perfmgr: stored counters of {} ports cleared (totals, last deltas, rates)", store_.size());
}

PerfAgent::Request PerfAgent::request_to(Guid node, Lid lid, std::size_t target) const {
  Request r;
  r.lid = lid;
  r.node = node;
  r.target = target;
  const auto it = redirect_.find(node);
  r.route = it != redirect_.end() ? it->second : gsi_route(lid);
  r.redirected = it != redirect_.end();
  return r;
}

bool PerfAgent::follow_redirect(Request r, std::span<const std::uint8_t> data, bool allowed) {
  const std::string node = format_guid(r.node);
  if (!allowed) {
    spdlog::warn("perfmgr: node {} LID {}: its PMA redirects, perfmgr.follow_redirect is off: not read", node, r.lid);
    return false;
  }
  if (r.redirected) {
    spdlog::warn("perfmgr: node {} LID {}: redirected again from LID {} QP {}: not followed", node, r.lid,
                 r.route.lid, r.route.qpn);
    return false;
  }
  const Result<PmaRoute> to = redirect_route(mad::PmaClassPortInfo::decode(data), r.route);
  if (!to) {
    spdlog::warn("perfmgr: node {} LID {}: redirect not followed: {}", node, r.lid, to.error().message);
    return false;
  }
  if (redirect_.insert_or_assign(r.node, *to).second) {
    spdlog::info("perfmgr: node {} LID {}: PMA redirects to LID {} QP {} Q_Key 0x{:08x}", node, r.lid, to->lid, to->qpn,
                 to->qkey);
  }
  r.route = *to;
  r.redirected = true;
  window_->push_front(r);
  return true;
}

void PerfAgent::drain(const OnAnswer& on_answer) {
  const bool follow = snapshot().first.follow_redirect;
  mad::GmpOutcome<Request> outcome;
  outcome.answered = [&](const Request& r, const mad::GmpLink<Request>::Mad& mad) {
    const auto resp = mad::parse_pma_response(mad);
    if ((resp->status & mad::kMadStatusRedirect) != 0 && follow_redirect(r, resp->data, follow)) return;
    if (resp->status != 0) ++pass_.errors;
    on_answer(r, resp->status, resp->data);
  };
  outcome.gave_up = [&](const Request& r, mad::GmpGiveUp why) {
    if (why == mad::GmpGiveUp::kSendFailed) {
      ++pass_.errors;
    } else {
      ++pass_.timeouts;
      // A redirected PMA that stopped answering: the next pass asks its GSI again (it may redirect anew).
      if (r.redirected && redirect_.erase(r.node) != 0) {
        spdlog::info("perfmgr: node {}: no answer at the redirected LID {} QP {}: back to its GSI", format_guid(r.node),
                     r.route.lid, r.route.qpn);
      }
    }
    on_answer(r, kNoAnswer, {});
  };
  window_->drain(outcome);
}

std::pair<PerfMgrPolicy, std::shared_ptr<const std::vector<PerfTarget>>> PerfAgent::snapshot() const {
  const std::lock_guard lock(worker_.mutex());
  return {policy_, targets_};
}

void PerfAgent::read_capabilities(const std::vector<PerfTarget>& ports) {
  std::set<Guid> asked;
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const Guid node = ports[i].key.node_guid;
    if (capability_.contains(node) || !asked.insert(node).second) continue;
    Request r = request_to(node, ports[i].lid, i);
    r.attr = mad::kAttrPmaClassPortInfo;
    r.method = mad::Method::kGet;
    window_->push_back(r);
  }
  drain([&](const Request& r, std::uint16_t status, std::span<const std::uint8_t> data) {
    if (status == 0 && data.size() >= 4) capability_[ports[r.target].key.node_guid] = mad::pma_capability_mask(data);
  });
}

std::vector<PerfAgent::PortProgress> PerfAgent::read_counters(const std::vector<PerfTarget>& ports) {
  for (std::size_t i = 0; i < ports.size(); ++i) {
    Request r = request_to(ports[i].key.node_guid, ports[i].lid, i);
    r.method = mad::Method::kGet;
    r.attr = mad::kAttrPortCounters;
    mad::PortCounters select;
    select.port_select = static_cast<std::uint8_t>(ports[i].key.port);
    select.encode(r.data);
    window_->push_back(r);
    const auto cap = capability_.find(ports[i].key.node_guid);
    if (cap != capability_.end() &&
        (cap->second & (mad::pma_cap::kExtendedWidthSupported | mad::pma_cap::kExtendedWidthNoIetf)) != 0) {
      Request x = r;
      x.attr = mad::kAttrPortCountersExtended;
      x.data.fill(0);
      mad::PortCountersExtended ext;
      ext.port_select = static_cast<std::uint8_t>(ports[i].key.port);
      ext.encode(x.data);
      window_->push_back(x);
    }
  }
  std::vector<PortProgress> progress(ports.size());
  drain([&](const Request& r, std::uint16_t status, std::span<const std::uint8_t> data) {
    PortProgress& p = progress[r.target];
    if (status != 0 || data.size() < 192) {
      p.failed = true;
      return;
    }
    if (r.attr == mad::kAttrPortCounters) {
      std::copy_n(data.begin(), 192, p.counters.begin());
      p.have_counters = true;
      p.read_s = seconds_of(SteadyClock::now());
    } else {
      std::copy_n(data.begin(), 192, p.extended.begin());
      p.have_extended = true;
    }
  });
  return progress;
}

PerfPassDeltas PerfAgent::fold_readings(const std::vector<PerfTarget>& ports, const std::vector<PortProgress>& progress,
                                        const PerfMgrPolicy& policy) {
  PerfPassDeltas deltas;
  const auto wall = std::chrono::system_clock::now();
  for (std::size_t i = 0; i < ports.size(); ++i) {
    const PortProgress& p = progress[i];
    if (!p.have_counters || p.failed) continue;
    const PerfTarget& t = ports[i];
    const mad::PortCounters pc = mad::PortCounters::decode(p.counters);
    PortReading reading;
    reading.key = t.key;
    reading.port_guid = t.port_guid;
    reading.lid = t.lid;
    reading.node_desc = t.node_desc;
    reading.peer = t.peer;
    reading.counters = error_counters(pc);
    reading.t_s = p.read_s;
    reading.wall = wall;
    // Data counters count 4-octet words on the wire (IBA 16.1.3.5).
    if (p.have_extended) {
      const mad::PortCountersExtended ext = mad::PortCountersExtended::decode(p.extended);
      reading.extended = true;
      reading.data = {ext.port_xmit_data * 4, ext.port_rcv_data * 4, ext.port_xmit_pkts, ext.port_rcv_pkts};
    } else {
      reading.data = {std::uint64_t{pc.port_xmit_data} * 4, std::uint64_t{pc.port_rcv_data} * 4, pc.port_xmit_pkts,
                      pc.port_rcv_pkts};
    }
    ++pass_.ports;
    const ReadingResult result = store_.apply(reading);
    if (std::ranges::any_of(result.delta, [](std::uint64_t d) { return d != 0; })) {
      deltas.moved.push_back({t.key, result.delta, result.elapsed_s});
    }
    if (result.saturated != 0 && policy.reset_saturated && (result.reset_select != 0 || result.reset_select2 != 0)) {
      queue_clear(t, i, result);
    }
  }
  return deltas;
}

void PerfAgent::queue_clear(const PerfTarget& t, std::size_t target, const ReadingResult& result) {
  Request r = request_to(t.key.node_guid, t.lid, target);
  r.method = mad::Method::kSet;
  r.attr = mad::kAttrPortCounters;
  mad::PortCounters clear;
  clear.port_select = static_cast<std::uint8_t>(t.key.port);
  clear.counter_select = result.reset_select;
  clear.counter_select2 = result.reset_select2;
  clear.encode(r.data);
  window_->push_back(r);
  spdlog::info("perfmgr: {} port {} (node {}): saturated counters cleared (CounterSelect 0x{:04x})", t.node_desc,
               t.key.port, format_guid(t.key.node_guid), result.reset_select);
}

void PerfAgent::clear_saturated(const std::vector<PerfTarget>& ports) {
  drain([&](const Request& r, std::uint16_t status, std::span<const std::uint8_t>) {
    if (status != 0) return;
    const mad::PortCounters sent = mad::PortCounters::decode(r.data);
    store_.cleared(ports[r.target].key, sent.counter_select, sent.counter_select2);
    ++pass_.resets;
  });
}

void PerfAgent::publish_pass(const PerfMgrPolicy& policy) {
  ++passes_;
  auto view = std::make_shared<PerfView>();
  view->ports = store_.rows();
  view->passes = passes_;
  view->last_pass = pass_;
  view->last_pass_end = std::chrono::system_clock::now();
  view->interval_s = policy.interval_s;
  const std::shared_ptr<const PerfView> before = view_.load();
  view->clears = before->clears;
  view->cleared_at = before->cleared_at;
  // Rendered here, once per pass, so a scrape only copies it (its CPU is not in cpu_ms: that is the reading).
  if (render_) view->metrics_text = std::make_shared<const std::string>(render_(*view));
  view_.store(std::move(view));
}

void PerfAgent::publish_unpolled(const PerfMgrPolicy& policy, std::uint64_t unreachable) {
  // Every cabled port is out of LID reach: the SM's own port, or its switch, is drained or isolated. The pass
  // is published empty with the count, so `smctl counters` says why nothing is polled instead of showing the
  // last readings as current, and the stored counters go (their deltas would span the whole outage).
  if (!unpolled_logged_) {
    spdlog::warn(
        "perfmgr: no LID route from the SM's port reaches any of the {} cabled ports (the SM's own port or "
        "switch is drained or isolated): nothing is polled and the stored counters are dropped until one is "
        "reachable again",
        unreachable);
    unpolled_logged_ = true;
  }
  pass_ = PerfPassStats{};
  pass_.unreachable = unreachable;
  store_.retain({});
  publish_pass(policy);
  if (sink_) sink_(PerfPassDeltas{});  // the health rules' quiet periods still tick
}

void PerfAgent::run_pass() {
  const auto [policy, targets] = snapshot();
  std::uint64_t unreachable = 0;
  {
    const std::lock_guard lock(worker_.mutex());
    unreachable = unreachable_;
  }
  if (!targets || targets->empty()) {
    if (unreachable > 0) publish_unpolled(policy, unreachable);
    return;  // before the first sweep (or a fabric of no port with a LID): nothing to read, nothing to say
  }
  if (unpolled_logged_) {
    spdlog::info("perfmgr: {} ports reachable from the SM's port again: polling resumes", targets->size());
    unpolled_logged_ = false;
  }
  const auto t_start = SteadyClock::now();
  const double cpu_start = thread_cpu_ms();
  pass_ = PerfPassStats{};
  pass_.unreachable = unreachable;
  const std::vector<PerfTarget>& ports = *targets;

  std::vector<PortKey> keys;
  keys.reserve(ports.size());
  for (const PerfTarget& t : ports) keys.push_back(t.key);
  store_.retain(keys);

  read_capabilities(ports);
  const std::vector<PortProgress> progress = read_counters(ports);
  PerfPassDeltas deltas = fold_readings(ports, progress, policy);
  clear_saturated(ports);
  if (stopping()) return;

  pass_.wall_ms = ms_between(t_start, SteadyClock::now());
  pass_.cpu_ms = thread_cpu_ms() - cpu_start;
  publish_pass(policy);
  spdlog::debug(
      "perfmgr: pass {}: {} ports, {} MADs, {} timeouts, {:.1f} ms ({:.1f} ms CPU, {:.1f} ms paused), {} ports not "
      "polled (drained or isolated)",
      passes_, pass_.ports, pass_.mads_sent, pass_.timeouts, pass_.wall_ms, pass_.cpu_ms, pass_.paused_ms,
      pass_.unreachable);
  if (sink_) sink_(std::move(deltas));  // every pass, moved or not: the health rules' quiet periods run on it
}

}  // namespace smd
