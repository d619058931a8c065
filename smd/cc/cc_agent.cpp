#include "smd/cc/cc_agent.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <utility>

namespace smd {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::uint32_t kGsiQkey = 0x80010000;
// Per attempt, and re-sends after a timeout: a CC agent answers as a PMA does (the PerfMgr's defaults).
constexpr auto kTimeout = std::chrono::milliseconds(200);
constexpr unsigned kRetries = 2;

// An answer's attribute data as a CcData (a short one is zero-filled).
mad::CcData cc_data(std::span<const std::uint8_t> data) {
  mad::CcData d{};
  std::copy_n(data.begin(), std::min(data.size(), d.size()), d.begin());
  return d;
}

}  // namespace

// The CC thread's side of its GmpWindow: CC MADs (with the pass's CC_Key) through the Sender, answers from its
// GmpManagerThread's inbox.
class CcAgent::Link final : public mad::GmpLink<Request> {
 public:
  explicit Link(CcAgent& agent) : agent_(agent) {}
  /// The targets and policy of the pass about to run (they outlive it: run_pass holds them).
  void begin_pass(const std::vector<CcTarget>& targets, const CongestionControlPolicy& policy) {
    targets_ = &targets;
    policy_ = &policy;
  }
  bool stopping() const override { return agent_.stopping(); }
  bool paused() const override { return agent_.sweeping_.load(std::memory_order_relaxed); }
  mad::GmpLimits limits() const override { return {policy_->max_outstanding, kTimeout, kRetries}; }
  int send(const Request& r, std::uint32_t tid) override {
    mad::MadAddress to;
    to.lid = (*targets_)[r.target].lid;
    to.qpn = 1;
    to.qkey = kGsiQkey;
    ++agent_.pass_.mads;
    return agent_.sender_(
        mad::make_cc_request(static_cast<std::uint8_t>(r.method), r.attr, r.mod, tid, policy_->cc_key, r.data), to);
  }
  void wait(Clock::time_point until, std::vector<Mad>& answers) override { agent_.worker_.take(until, answers); }
  // Any class-0x21 MAD, response or not: an unroutable request comes back as it was sent, and is given up.
  std::optional<std::uint32_t> answer_tid(const Mad& m) const override {
    if (m[1] != mad::kClassCongestionControl) return std::nullopt;
    return static_cast<std::uint32_t>((std::uint32_t{m[12]} << 24) | (std::uint32_t{m[13]} << 16) |
                                      (std::uint32_t{m[14]} << 8) | m[15]);
  }

 private:
  CcAgent& agent_;
  const std::vector<CcTarget>* targets_ = nullptr;
  const CongestionControlPolicy* policy_ = nullptr;
};

CcAgent::CcAgent(Sender sender)
    : sender_(std::move(sender)),
      link_(std::make_unique<Link>(*this)),
      window_(std::make_unique<mad::GmpWindow<Request>>(*link_)) {}

CcAgent::~CcAgent() { stop(); }

void CcAgent::configure(const CongestionControlPolicy& policy) {
  const std::lock_guard lock(worker_.mutex());
  policy_ = policy;
}

void CcAgent::request_pass(std::vector<CcTarget> targets) {
  worker_.post([&] { pending_ = std::move(targets); });
}

void CcAgent::submit(std::span<const std::uint8_t, mad::kMadSize> mad) { worker_.submit(mad); }

void CcAgent::start() {
  worker_.start("smd-ccmgr", [this] { loop(); });
}

void CcAgent::stop() { worker_.stop(); }

CcPassStats CcAgent::last_pass() const {
  const std::lock_guard lock(worker_.mutex());
  return stats_;
}

bool CcAgent::wait_for_passes(std::uint64_t passes, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(worker_.mutex());
  return worker_.wake().wait_for(lock, timeout, [&] { return stats_.passes >= passes; });
}

void CcAgent::loop() {
  while (!stopping()) {
    std::vector<CcTarget> targets;
    CongestionControlPolicy policy;
    {
      std::unique_lock lock(worker_.mutex());
      worker_.wake().wait(lock, [&] { return stopping() || pending_.has_value(); });
      if (stopping()) return;
      targets = std::move(*pending_);
      pending_.reset();
      policy = policy_;
      worker_.inbox().clear();  // answers to an abandoned pass
    }
    run_pass(targets, policy);
  }
}

void CcAgent::run_pass(const std::vector<CcTarget>& targets, const CongestionControlPolicy& policy) {
  const auto t0 = SteadyClock::now();
  pass_ = CcPassStats{};
  for (const CcTarget& t : targets) ++(t.is_switch ? pass_.switches : pass_.ca_ports);
  link_->begin_pass(targets, policy);
  const std::vector<CcReading> readings = read_settings(targets, policy);
  if (stopping()) return;
  const std::vector<CcWrite> plan = plan_cc_writes(targets, readings, policy);
  const std::vector<Request> reads = write_plan(targets, plan);
  verify_plan(targets, plan, reads);
  if (stopping()) return;
  finish_pass(t0);
}

std::vector<CcReading> CcAgent::read_settings(const std::vector<CcTarget>& targets,
                                              const CongestionControlPolicy& policy) {
  std::vector<CcReading> readings(targets.size());
  const std::size_t cct_blocks = wanted_cct_blocks(policy).size();
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (targets[i].is_switch) {
      window_->push_back({i, mad::Method::kGet, mad::cc_attr::kSwitchCongestionSetting});
    } else {
      window_->push_back({i, mad::Method::kGet, mad::cc_attr::kCaCongestionSetting});
      if (cct_blocks > 0) window_->push_back({i, mad::Method::kGet, mad::cc_attr::kCongestionInfo});
    }
  }
  auto store = [&](const Request& r, std::optional<std::span<const std::uint8_t>> data) {
    if (!data) return;
    ++pass_.reads;
    const mad::CcData d = cc_data(*data);
    CcReading& reading = readings[r.target];
    switch (r.attr) {
      case mad::cc_attr::kSwitchCongestionSetting: reading.switch_setting = d; break;
      case mad::cc_attr::kCaCongestionSetting: reading.ca_setting = d; break;
      case mad::cc_attr::kCongestionInfo: reading.info = mad::CongestionInfo::decode(d); break;
      case mad::cc_attr::kCongestionControlTable:
        if (reading.cct_blocks.size() <= r.mod) reading.cct_blocks.resize(r.mod + 1);
        reading.cct_blocks[r.mod] = d;
        break;
      default: break;
    }
  };
  drain(targets, store);
  // The CCT blocks a CA holds, now that its ControlTableCap is known.
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const std::size_t cap = readings[i].info ? readings[i].info->control_table_cap : 0;
    if (!targets[i].is_switch && readings[i].info && cap < cct_blocks) {
      spdlog::warn("congestion control: {} port {} holds {} CCT blocks; the policy's table needs {}", targets[i].name,
                   targets[i].port, cap, cct_blocks);
    }
    for (std::size_t b = 0; b < std::min(cap, cct_blocks); ++b) {
      window_->push_back({i, mad::Method::kGet, mad::cc_attr::kCongestionControlTable, static_cast<std::uint32_t>(b)});
    }
  }
  drain(targets, store);
  return readings;
}

std::vector<CcAgent::Request> CcAgent::write_plan(const std::vector<CcTarget>& targets,
                                                  const std::vector<CcWrite>& plan) {
  for (std::size_t w = 0; w < plan.size(); ++w) {
    window_->push_back({plan[w].target, mad::Method::kSet, plan[w].attr, plan[w].mod, plan[w].data, w});
  }
  pass_.sets = static_cast<unsigned>(plan.size());
  std::vector<Request> reads;
  drain(targets, [&](const Request& r, std::optional<std::span<const std::uint8_t>> data) {
    if (!data) return;
    if (cc_echoed(plan[r.write], cc_data(*data))) {
      ++pass_.believed;
      reads.push_back({r.target, mad::Method::kGet, r.attr, r.mod, {}, r.write});
      return;
    }
    ++pass_.not_echoed;
    spdlog::warn("congestion control: {} (LID {}): {} Set not echoed", targets[r.target].name, targets[r.target].lid,
                 describe_cc_attr(r.attr, r.mod));
  });
  return reads;
}

void CcAgent::verify_plan(const std::vector<CcTarget>& targets, const std::vector<CcWrite>& plan,
                          const std::vector<Request>& reads) {
  for (const Request& r : reads) window_->push_back(r);
  drain(targets, [&](const Request& r, std::optional<std::span<const std::uint8_t>> data) {
    if (!data) return;
    if (cc_echoed(plan[r.write], cc_data(*data))) {
      ++pass_.held;
      return;
    }
    ++pass_.not_held;
    spdlog::warn("congestion control: {} (LID {}): {} Set was answered but a read shows it not held",
                 targets[r.target].name, targets[r.target].lid, describe_cc_attr(r.attr, r.mod));
  });
}

void CcAgent::finish_pass(SteadyClock::time_point started) {
  pass_.wall_ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - started).count();
  worker_.post([&] {
    pass_.passes = stats_.passes + 1;
    stats_ = pass_;
  });
  const bool short_of_policy = pass_.unanswered > 0 || pass_.not_echoed > 0 || pass_.not_held > 0;
  spdlog::log(short_of_policy ? spdlog::level::warn : spdlog::level::info,
              "congestion control: pass {}: {} switches, {} CA ports; {} reads answered, {} Sets ({} echoed, {} not "
              "echoed; {} held, {} not held on read-back), {} MADs unanswered, {:.1f} ms",
              pass_.passes, pass_.switches, pass_.ca_ports, pass_.reads, pass_.sets, pass_.believed, pass_.not_echoed,
              pass_.held, pass_.not_held, pass_.unanswered, pass_.wall_ms);
}

void CcAgent::drain(const std::vector<CcTarget>& targets, const Answer& on_answer) {
  auto give_up = [&](const Request& r, const char* why) {
    ++pass_.unanswered;
    spdlog::debug("congestion control: {} (LID {}): {} {}: {}", targets[r.target].name, targets[r.target].lid,
                  describe_cc_attr(r.attr, r.mod), r.method == mad::Method::kSet ? "Set" : "Get", why);
    on_answer(r, std::nullopt);
  };
  mad::GmpOutcome<Request> outcome;
  outcome.answered = [&](const Request& r, const mad::GmpLink<Request>::Mad& m) {
    const auto resp = mad::parse_cc_response(m);
    spdlog::trace("congestion control: LID {} {} {}: back with method 0x{:02x}, MAD status 0x{:04x}",
                  targets[r.target].lid, describe_cc_attr(r.attr, r.mod), r.method == mad::Method::kSet ? "Set" : "Get",
                  m[3], (std::uint16_t{m[4]} << 8) | m[5]);
    if (!resp) {
      give_up(r, "handed back unrouted");  // our own request, returned: no route to that LID
    } else if (resp->status != 0) {
      give_up(r, "status not 0");
    } else {
      on_answer(r, resp->data);
    }
  };
  outcome.gave_up = [&](const Request& r, mad::GmpGiveUp why) {
    give_up(r, why == mad::GmpGiveUp::kSendFailed ? "send failed" : "no answer");
  };
  window_->drain(outcome);
}

}  // namespace smd
