#include "smd/cc/cc_agent.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

namespace smd {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr std::uint8_t kMethodGet = 0x01;
constexpr std::uint8_t kMethodSet = 0x02;
constexpr std::uint32_t kGsiQkey = 0x80010000;
// Per attempt, and re-sends after a timeout: a CC agent answers as a PMA does (the PerfMgr's defaults).
constexpr auto kTimeout = std::chrono::milliseconds(200);
constexpr unsigned kRetries = 2;
// How long the thread sleeps between looks while a sweep holds it off.
constexpr auto kPausePoll = std::chrono::milliseconds(5);

}  // namespace

CcAgent::CcAgent(Sender sender) : sender_(std::move(sender)) {}

CcAgent::~CcAgent() { stop(); }

void CcAgent::configure(const CongestionControlPolicy& policy) {
  const std::lock_guard lock(mutex_);
  policy_ = policy;
}

void CcAgent::request_pass(std::vector<CcTarget> targets) {
  {
    const std::lock_guard lock(mutex_);
    pending_ = std::move(targets);
  }
  wake_.notify_all();
}

void CcAgent::submit(std::span<const std::uint8_t, mad::kMadSize> mad) {
  {
    const std::lock_guard lock(mutex_);
    if (rx_.size() >= 4096) return;  // far more than could be outstanding: stale or not ours
    std::array<std::uint8_t, mad::kMadSize> copy{};
    std::copy(mad.begin(), mad.end(), copy.begin());
    rx_.push_back(copy);
  }
  wake_.notify_all();
}

void CcAgent::start() {
  if (thread_.joinable()) return;
  stop_.store(false);
  thread_ = std::thread([this] { loop(); });
  pthread_setname_np(thread_.native_handle(), "smd-ccmgr");
}

void CcAgent::stop() {
  if (!thread_.joinable()) return;
  {
    // Set under the lock: a thread between its wait predicate and the wait itself would miss the notify.
    const std::lock_guard lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  thread_.join();
  outstanding_.clear();
}

CcPassStats CcAgent::last_pass() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

bool CcAgent::wait_for_passes(std::uint64_t passes, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return wake_.wait_for(lock, timeout, [&] { return stats_.passes >= passes; });
}

void CcAgent::loop() {
  while (!stopping()) {
    std::vector<CcTarget> targets;
    CongestionControlPolicy policy;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping() || pending_.has_value(); });
      if (stopping()) return;
      targets = std::move(*pending_);
      pending_.reset();
      policy = policy_;
      rx_.clear();  // answers to an abandoned pass
    }
    run_pass(targets, policy);
  }
}

void CcAgent::run_pass(const std::vector<CcTarget>& targets, const CongestionControlPolicy& policy) {
  const auto t0 = SteadyClock::now();
  pass_ = CcPassStats{};
  for (const CcTarget& t : targets) ++(t.is_switch ? pass_.switches : pass_.ca_ports);

  // 1. Read what every agent holds (and a CA's ControlTableCap).
  std::vector<CcReading> readings(targets.size());
  const std::size_t cct_blocks = wanted_cct_blocks(policy).size();
  std::deque<Request> work;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (targets[i].is_switch) {
      work.push_back({i, kMethodGet, mad::cc_attr::kSwitchCongestionSetting});
    } else {
      work.push_back({i, kMethodGet, mad::cc_attr::kCaCongestionSetting});
      if (cct_blocks > 0) work.push_back({i, kMethodGet, mad::cc_attr::kCongestionInfo});
    }
  }
  auto store = [&](const Request& r, std::optional<std::span<const std::uint8_t>> data) {
    if (!data) return;
    ++pass_.reads;
    mad::CcData d{};
    std::copy_n(data->begin(), std::min(data->size(), d.size()), d.begin());
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
  drain(work, targets, policy, store);
  // The CCT blocks a CA holds, now that its ControlTableCap is known.
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const std::size_t cap = readings[i].info ? readings[i].info->control_table_cap : 0;
    if (!targets[i].is_switch && readings[i].info && cap < cct_blocks) {
      spdlog::warn("congestion control: {} port {} holds {} CCT blocks; the policy's table needs {}", targets[i].name,
                   targets[i].port, cap, cct_blocks);
    }
    for (std::size_t b = 0; b < std::min(cap, cct_blocks); ++b) {
      work.push_back({i, kMethodGet, mad::cc_attr::kCongestionControlTable, static_cast<std::uint32_t>(b)});
    }
  }
  drain(work, targets, policy, store);
  if (stopping()) return;

  // 2. Write what differs; believe only what is echoed.
  const std::vector<CcWrite> plan = plan_cc_writes(targets, readings, policy);
  for (std::size_t w = 0; w < plan.size(); ++w) {
    work.push_back({plan[w].target, kMethodSet, plan[w].attr, plan[w].mod, plan[w].data, w});
  }
  pass_.sets = static_cast<unsigned>(plan.size());
  std::deque<Request> verify;
  drain(work, targets, policy, [&](const Request& r, std::optional<std::span<const std::uint8_t>> data) {
    if (!data) return;
    mad::CcData d{};
    std::copy_n(data->begin(), std::min(data->size(), d.size()), d.begin());
    if (cc_echoed(plan[r.write], d)) {
      ++pass_.believed;
      verify.push_back({r.target, kMethodGet, r.attr, r.mod, {}, r.write});  // 3. read back
      return;
    }
    ++pass_.not_echoed;
    spdlog::warn("congestion control: {} (LID {}): {} Set not echoed", targets[r.target].name, targets[r.target].lid,
                 describe_cc_attr(r.attr, r.mod));
  });
  // 3. An echo can be the request reflected (ibsim answers CC Sets so and stores nothing): a Set counts as
  // held only when a later Get shows it.
  drain(verify, targets, policy, [&](const Request& r, std::optional<std::span<const std::uint8_t>> data) {
    if (!data) return;
    mad::CcData d{};
    std::copy_n(data->begin(), std::min(data->size(), d.size()), d.begin());
    if (cc_echoed(plan[r.write], d)) {
      ++pass_.held;
      return;
    }
    ++pass_.not_held;
    spdlog::warn("congestion control: {} (LID {}): {} Set was answered but a read shows it not held",
                 targets[r.target].name, targets[r.target].lid, describe_cc_attr(r.attr, r.mod));
  });
  if (stopping()) return;

  pass_.wall_ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - t0).count();
  {
    const std::lock_guard lock(mutex_);
    pass_.passes = stats_.passes + 1;
    stats_ = pass_;
  }
  wake_.notify_all();
  const bool short_of_policy = pass_.unanswered > 0 || pass_.not_echoed > 0 || pass_.not_held > 0;
  spdlog::log(short_of_policy ? spdlog::level::warn : spdlog::level::info,
              "congestion control: pass {}: {} switches, {} CA ports; {} reads answered, {} Sets ({} echoed, {} not "
              "echoed; {} held, {} not held on read-back), {} MADs unanswered, {:.1f} ms",
              pass_.passes, pass_.switches, pass_.ca_ports, pass_.reads, pass_.sets, pass_.believed, pass_.not_echoed,
              pass_.held, pass_.not_held, pass_.unanswered, pass_.wall_ms);
}

void CcAgent::drain(std::deque<Request>& work, const std::vector<CcTarget>& targets,
                    const CongestionControlPolicy& policy, const Answer& on_answer) {
  std::vector<std::array<std::uint8_t, mad::kMadSize>> answers;
  auto give_up = [&](const Request& r, const char* why) {
    ++pass_.unanswered;
    spdlog::debug("congestion control: {} (LID {}): {} {}: {}", targets[r.target].name, targets[r.target].lid,
                  describe_cc_attr(r.attr, r.mod), r.method == kMethodSet ? "Set" : "Get", why);
    on_answer(r, std::nullopt);
  };
  while ((!work.empty() || !outstanding_.empty()) && !stopping()) {
    if (sweeping_.load(std::memory_order_relaxed) && outstanding_.empty()) {
      std::this_thread::sleep_for(kPausePoll);
      continue;
    }
    while (!sweeping_.load(std::memory_order_relaxed) && outstanding_.size() < policy.max_outstanding &&
           !work.empty()) {
      Request r = work.front();
      work.pop_front();
      const std::uint32_t tid = next_tid_++;
      if (next_tid_ == 0) next_tid_ = 1;
      const auto m = mad::make_cc_request(r.method, r.attr, r.mod, tid, policy.cc_key, r.data);
      mad::MadAddress to;
      to.lid = targets[r.target].lid;
      to.qpn = 1;
      to.qkey = kGsiQkey;
      ++r.attempts;
      ++pass_.mads;
      r.deadline = SteadyClock::now() + kTimeout;
      if (sender_(m, to) != 0) {
        give_up(r, "send failed");
        continue;
      }
      outstanding_.emplace(tid, r);
    }
    auto next_deadline = SteadyClock::now() + std::chrono::milliseconds(50);
    for (const auto& [tid, r] : outstanding_) next_deadline = std::min(next_deadline, r.deadline);
    {
      std::unique_lock lock(mutex_);
      wake_.wait_until(lock, next_deadline, [&] { return stopping() || !rx_.empty(); });
      answers.assign(rx_.begin(), rx_.end());
      rx_.clear();
    }
    for (const auto& m : answers) {
      if (m[1] != mad::kClassCongestionControl) continue;
      const auto tid = static_cast<std::uint32_t>((std::uint64_t{m[12]} << 24) | (std::uint64_t{m[13]} << 16) |
                                                  (std::uint64_t{m[14]} << 8) | m[15]);
      const auto it = outstanding_.find(tid);
      if (it == outstanding_.end()) continue;  // late: given up or re-sent
      const Request r = it->second;
      outstanding_.erase(it);
      const auto resp = mad::parse_cc_response(m);
      spdlog::trace("congestion control: LID {} {} {}: back with method 0x{:02x}, MAD status 0x{:04x}",
                    targets[r.target].lid, describe_cc_attr(r.attr, r.mod), r.method == kMethodSet ? "Set" : "Get",
                    m[3], (std::uint16_t{m[4]} << 8) | m[5]);
      if (!resp) {
        give_up(r, "handed back unrouted");  // our own request, returned: no route to that LID
      } else if (resp->status != 0) {
        give_up(r, "status not 0");
      } else {
        on_answer(r, resp->data);
      }
    }
    const auto now = SteadyClock::now();
    for (auto it = outstanding_.begin(); it != outstanding_.end();) {
      if (it->second.deadline > now) {
        ++it;
        continue;
      }
      Request r = it->second;
      it = outstanding_.erase(it);
      if (r.attempts <= kRetries) {
        work.push_front(r);
      } else {
        give_up(r, "no answer");
      }
    }
  }
}

}  // namespace smd
