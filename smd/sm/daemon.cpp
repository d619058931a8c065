#include "smd/sm/daemon.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <utility>

#include "config/policy_loader.h"
#include "mad/codec/notice.h"
#include "mad/codec/port_info.h"
#include "mad/transport/smp_batch.h"
#include "smd/sm/notify.h"
#include "smd/sm/sm_election.h"
#include "smd/sm/sm_port.h"

namespace smd {

namespace {

// Traps arrive in bursts (both ends of a cable, several cables of one switch): wait this long after the
// first before sweeping, so one heavy sweep repairs them all.
constexpr std::chrono::milliseconds kTrapDebounce{20};

}  // namespace

Daemon::Daemon(Policy policy, std::string config_path)
    : policy_(std::move(policy)),
      config_path_(std::move(config_path)),
      sweep_timer_(io_),
      light_timer_(io_),
      poll_timer_(io_),
      watchdog_timer_(io_),
      signals_(io_, SIGTERM, SIGINT, SIGHUP) {
  publish(nullptr);
}

Daemon::~Daemon() = default;

int Daemon::run() {
  auto port = open_sm_port(policy_);
  if (!port.ok()) {
    spdlog::error("cannot open the SM port: {}", port.error().message);
    return 2;
  }
  own_guid_ = port.value()->port_guid();
  spdlog::info("SM port {}; priority {}; state DISCOVERING", port.value()->describe(), policy_.sm.priority);

  auto guard = boost::asio::make_work_guard(io_);
  transport_ = std::make_unique<mad::UmadTransport>(io_, std::move(port.value()), transport_options(policy_));
  transport_->set_unsolicited_handler([this](std::span<const std::uint8_t, mad::kMadSize> mad,
                                             const mad::UnsolicitedInfo& info) { on_unsolicited(mad, info); });
  runner_ = std::make_unique<SweepRunner>(io_, *transport_, policy_);

  signals_.async_wait([this](const boost::system::error_code& ec, int signo) {
    if (!ec) on_signal(signo);
  });
  start_management();
  arm_watchdog();
  schedule_heavy_sweep(std::chrono::milliseconds(0), "start-up");
  while (!stopping_) {
    io_.run_one();
  }
  notify::stopping();
  if (control_) (void)control_->stop();
  if (metrics_) (void)metrics_->stop();
  sweep_timer_.cancel();
  light_timer_.cancel();
  poll_timer_.cancel();
  watchdog_timer_.cancel();
  signals_.cancel();
  transport_->stop();
  spdlog::info("smd stopped");
  return 0;
}

// The control socket and metrics are conveniences: the SM keeps running the fabric when they cannot start.
void Daemon::start_management() {
  control_ = std::make_unique<ControlServer>(io_, *this, policy_.control.socket, policy_.control.mode);
  if (auto st = control_->start(); !st.ok()) {
    spdlog::error("control socket: {}", st.error().message);
    control_.reset();
  }
  if (policy_.metrics.enabled) {
    metrics_ = std::make_unique<MetricsServer>(
        io_, [this] { return snapshot(); }, policy_.metrics.listen);
    if (auto st = metrics_->start(); !st.ok()) {
      spdlog::error("metrics: {}", st.error().message);
      metrics_.reset();
    }
  }
}

// systemd's watchdog (WatchdogSec=) is pinged from the event loop, so a wedged loop gets the unit restarted.
void Daemon::arm_watchdog() {
  const auto interval = notify::watchdog_interval();
  if (!interval) return;
  watchdog_timer_.expires_after(*interval / 2);
  watchdog_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    notify::watchdog();
    arm_watchdog();
  });
}

void Daemon::request_heavy_sweep(const std::string& reason) {
  schedule_heavy_sweep(std::chrono::milliseconds(0), reason);
}

void Daemon::request_reroute(const std::string& reason) {
  // A reroute programs a fresh engine run on the topology the next heavy sweep confirms (re-balancing what
  // minimal repairs left); the programmer still writes only the blocks that differ.
  if (runner_) runner_->request_full_reroute();
  schedule_heavy_sweep(std::chrono::milliseconds(0), "reroute: " + reason);
}

void Daemon::schedule_heavy_sweep(std::chrono::milliseconds delay, const std::string& reason, SweepScope scope) {
  if (stopping_ || state_ == mad::SmState::kNotActive) return;
  if (pending_reason_.empty()) pending_reason_ = reason;
  if (scope == SweepScope::kFull) pending_full_ = true;
  // kChanged: the trap issuers are already in pending_trap_lids_; anything else makes the sweep full.
  // A sweep already due sooner covers this request; one due later (a re-sweep a sweep interval away) is
  // brought forward, or a trap would wait for it. Re-arming cancels the pending wait (its handler sees
  // operation_aborted and returns).
  const auto due = boost::asio::steady_timer::clock_type::now() + delay;
  if (sweep_scheduled_ && sweep_timer_.expiry() <= due) return;
  sweep_scheduled_ = true;
  sweep_timer_.expires_at(due);
  sweep_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    sweep_scheduled_ = false;
    if (sweeping_) {
      // A sweep is running (we are inside its nested wait): run another right after it.
      schedule_heavy_sweep(std::chrono::milliseconds(1), pending_reason_, SweepScope::kFailed);
      return;
    }
    run_heavy_sweep();
  });
}

void Daemon::run_heavy_sweep() {
  if (state_ == mad::SmState::kStandby) return;  // a standby only polls the master
  sweeping_ = true;
  const std::string reason = pending_reason_.empty() ? "requested" : pending_reason_;
  const SweepScope scope = pending_full_                 ? SweepScope::kFull
                           : !pending_trap_lids_.empty() ? SweepScope::kChanged
                                                         : SweepScope::kFailed;
  const std::vector<Lid> trap_lids = std::exchange(pending_trap_lids_, {});
  pending_reason_.clear();
  pending_full_ = false;
  spdlog::info("heavy sweep: {} (state {})", reason, mad::to_string(state_));
  const SweepSummary s =
      runner_->heavy_sweep([this](const ObservedFabric& d) { return election_gate(d); }, scope, trap_lids);
  sweeping_ = false;
  ++counters_.heavy_sweeps;
  if (s.incremental) ++counters_.incremental_sweeps;
  if (!s.full_discovery_because.empty()) ++counters_.incremental_fallbacks;
  counters_.smps_sent += s.smps_sent;
  counters_.smp_retries += s.retries;
  counters_.smp_timeouts += s.timeouts;
  counters_.lft_blocks_written += s.lft_blocks_written;
  counters_.heavy_sweep_seconds_total += s.total_ms / 1000.0;
  for (const PhaseTime& p : s.phases) {
    if (p.id == SweepPhase::kRouting) counters_.routing_seconds_total += p.ms / 1000.0;
  }
  if (s.stopped_after_discovery) {
    publish(&s);
    notify::ready(std::string("STANDBY: master ") + format_guid(master_guid_));
    return;
  }
  if (!s.subnet_up) {
    ++counters_.failed_sweeps;
    spdlog::warn("heavy sweep left {} problems; first: {}", s.problems.size(),
                 s.problems.empty() ? "" : s.problems.front().to_string());
  }
  if (state_ == mad::SmState::kDiscovering) become(mad::SmState::kMaster, "no SM of higher precedence found");
  ++act_count_;
  if (change_seen_ != Clock::time_point{} && s.subnet_up) {
    last_repair_ms_ = std::chrono::duration<double, std::milli>(Clock::now() - change_seen_).count();
    spdlog::info("repair: fabric consistent {:.1f} ms after the change was seen", last_repair_ms_);
    change_seen_ = {};
  }
  own_lid_ = runner_->topology() ? runner_->lids().base_lid(runner_->topology()->sm_node, runner_->topology()->sm_port)
                                 : Lid{0};
  publish(&s);
  const std::string line = std::string(mad::to_string(state_)) + ": " + std::to_string(s.switches) + " switches, " +
                           std::to_string(s.cas) + " CAs, " + std::to_string(s.links) + " links, engine " + s.engine +
                           (s.subnet_up ? ", subnet up" : ", " + std::to_string(s.problems.size()) + " problems");
  if (counters_.heavy_sweeps == 1) {
    notify::ready(line);
  } else {
    notify::status(line);
  }
  // Lost SMPs: sweep again soon, for what failed only, rather than waiting a whole sweep interval; after
  // sm.max_resweeps of those in a row (a port that never answers), only once per sweep interval.
  failed_in_row_ = s.subnet_up ? 0 : failed_in_row_ + 1;
  if (!s.subnet_up && !s.stopped_after_discovery) {
    // Past sm.max_resweeps the re-sweep discovers the whole fabric again: resuming only asks for what is
    // unread, and cannot see a fabric that differs from what the last sweep believed.
    const bool persistent = failed_in_row_ > policy_.sm.max_resweeps;
    const auto delay = persistent ? std::chrono::milliseconds(1000 * std::max(1u, policy_.sm.sweep_interval_s))
                                  : std::chrono::milliseconds(500);
    schedule_heavy_sweep(delay, persistent ? "full re-sweep: still not up" : "re-sweep of what failed",
                         persistent ? SweepScope::kFull : SweepScope::kFailed);
  }
  arm_light_sweep();
}

void Daemon::arm_light_sweep() {
  if (policy_.sm.sweep_interval_s == 0 || state_ != mad::SmState::kMaster) return;
  light_timer_.expires_after(std::chrono::seconds(policy_.sm.sweep_interval_s));
  light_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) run_light_sweep();
  });
}

void Daemon::run_light_sweep() {
  if (sweeping_ || state_ != mad::SmState::kMaster) {
    arm_light_sweep();
    return;
  }
  sweeping_ = true;
  std::string reason;
  const bool change = runner_->light_sweep_finds_change(reason);
  sweeping_ = false;
  ++counters_.light_sweeps;
  if (change) {
    if (change_seen_ == Clock::time_point{}) change_seen_ = Clock::now();
    schedule_heavy_sweep(std::chrono::milliseconds(0), "light sweep: " + reason);
  } else {
    arm_light_sweep();
  }
  publish(nullptr);
}

// Master election after discovery (IBA 14.4.1): ask every other port that advertises IsSM for its SMInfo.
bool Daemon::election_gate(const ObservedFabric& d) {
  const Topology& topo = *d.topo;
  SmpBatch batch(io_, *transport_);
  struct Peer {
    mad::DrPath path;
    mad::SmInfo info;
  };
  std::vector<Peer> peers;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = node.is_switch() ? 0 : 1; p <= node.num_ports; ++p) {
      const mad::PortInfo* pi = d.port_info(n, p);
      if (pi == nullptr || (n == topo.sm_node && p == topo.sm_port)) continue;
      if (node.is_switch() && p != 0) continue;
      if ((pi->capability_mask & mad::capmask::kIsSm) == 0) continue;
      mad::SmpRequest req;
      req.path = d.port_path(n, p);
      req.attr_id = mad::attr::kSmInfo;
      own_sminfo(policy_.sm.sm_key).encode(req.data);  // carries our SM_Key: a peer that shares it returns it
      batch.submit(std::move(req), [&peers, path = d.port_path(n, p)](const mad::SmpReply& r) {
        if (r.outcome == mad::SmpOutcome::kOk) peers.push_back({path, mad::SmInfo::decode(r.data)});
      });
    }
  }
  batch.wait();
  const SmSelf self{state_, policy_.sm.priority, own_guid_, policy_.sm.sm_key};
  const Peer* hand_to = nullptr;
  for (const Peer& peer : peers) {
    const std::string who = "SM " + format_guid(peer.info.guid) + " (priority " + std::to_string(peer.info.priority) +
                            ", " + mad::to_string(peer.info.state) + ") at DR path " + peer.path.to_string();
    switch (judge_peer(self, peer.info)) {
      case PeerVerdict::kFollow:
        master_path_ = peer.path;
        master_guid_ = peer.info.guid;
        become(mad::SmState::kStandby, "following " + who);
        return false;
      case PeerVerdict::kHandOver:
        if (!hand_to || sm_outranks(peer.info.priority, peer.info.guid, hand_to->info.priority, hand_to->info.guid)) {
          hand_to = &peer;
        }
        break;
      case PeerVerdict::kDistrust:
        spdlog::error("{} answered with a different SM_Key: not trusted, left out of the election", who);
        break;
      case PeerVerdict::kIgnore: break;
    }
  }
  if (hand_to && hand_over(hand_to->path, hand_to->info)) return false;
  return true;
}

// IBA 14.4.1.1: a MASTER that finds a STANDBY of higher precedence hands the subnet over with
// SMInfo Set(HANDOVER) and becomes a STANDBY polling it.
bool Daemon::hand_over(const mad::DrPath& path, const mad::SmInfo& to) {
  SmpBatch batch(io_, *transport_);
  mad::SmpRequest req;
  req.path = path;
  req.method = mad::Method::kSet;
  req.attr_id = mad::attr::kSmInfo;
  req.attr_mod = mad::sminfo_mod::kHandover;
  own_sminfo(policy_.sm.sm_key).encode(req.data);
  std::optional<mad::SmInfo> answer;
  batch.submit(std::move(req), [&answer](const mad::SmpReply& r) {
    if (r.outcome == mad::SmpOutcome::kOk) answer = mad::SmInfo::decode(r.data);
  });
  batch.wait();
  const std::string who = format_guid(to.guid) + " (priority " + std::to_string(to.priority) + ")";
  if (!answer || answer->state != mad::SmState::kMaster) {
    spdlog::warn("HANDOVER to {} at DR path {} not taken ({}); staying MASTER", who, path.to_string(),
                 answer ? std::string("it answered ") + mad::to_string(answer->state) : "no answer");
    return false;
  }
  master_path_ = path;
  master_guid_ = to.guid;
  become(mad::SmState::kStandby, "handed over to higher-priority SM " + who);
  return true;
}

void Daemon::become(mad::SmState state, const std::string& why) {
  if (state == state_) return;
  spdlog::info("SM state {} -> {}: {}", mad::to_string(state_), mad::to_string(state), why);
  state_ = state;
  if (state == mad::SmState::kStandby) {
    light_timer_.cancel();
    poll_failures_ = 0;
    arm_master_poll();
  } else {
    poll_timer_.cancel();
  }
  publish(nullptr);
}

void Daemon::arm_master_poll() {
  poll_timer_.expires_after(std::chrono::seconds(policy_.sm.poll_interval_s));
  poll_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec && state_ == mad::SmState::kStandby) poll_master();
  });
}

void Daemon::poll_master() {
  mad::SmpRequest req;
  req.path = master_path_;
  req.attr_id = mad::attr::kSmInfo;
  own_sminfo(policy_.sm.sm_key).encode(req.data);
  transport_->submit(std::move(req), [this](const mad::SmpReply& r) {
    if (state_ != mad::SmState::kStandby) return;
    const bool alive = r.outcome == mad::SmpOutcome::kOk && mad::SmInfo::decode(r.data).state == mad::SmState::kMaster;
    poll_failures_ = alive ? 0 : poll_failures_ + 1;
    if (poll_failures_ >= policy_.sm.poll_retries) {
      change_seen_ = Clock::now();
      become(mad::SmState::kMaster, "master " + format_guid(master_guid_) + " silent for " +
                                        std::to_string(poll_failures_) + " polls; taking over");
      schedule_heavy_sweep(std::chrono::milliseconds(0), "takeover");
      return;
    }
    arm_master_poll();
  });
}

mad::SmInfo Daemon::own_sminfo(std::uint64_t sm_key) const {
  mad::SmInfo info;
  info.guid = own_guid_;
  info.sm_key = sm_key;
  info.act_count = act_count_;
  info.priority = static_cast<std::uint8_t>(policy_.sm.priority);
  info.state = state_;
  return info;
}

void Daemon::on_unsolicited(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info) {
  if (info.mgmt_class != mad::kClassSmiLid && info.mgmt_class != mad::kClassSmiDirect) return;
  if (info.attr_id == mad::attr::kSmInfo && (info.method == static_cast<std::uint8_t>(mad::Method::kGet) ||
                                             info.method == static_cast<std::uint8_t>(mad::Method::kSet))) {
    answer_sminfo(mad, info);
    return;
  }
  if (info.method == static_cast<std::uint8_t>(mad::Method::kTrap) && info.attr_id == mad::attr::kNotice) {
    repress_trap(mad, info);
  }
}

void Daemon::answer_sminfo(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info) {
  const auto header = mad::decode_smp_header(mad);
  if (!header) return;
  const mad::SmInfo theirs = mad::SmInfo::decode(mad::smp_data(mad));
  const std::uint64_t own_key = policy_.sm.sm_key;
  if (info.method == static_cast<std::uint8_t>(mad::Method::kSet)) {
    // Another SM steers us (IBA 14.4.1 table 186); only one that knows our SM_Key (14.4.1.3).
    const std::string from = "SM " + format_guid(theirs.guid) + " (LID " + std::to_string(info.from.lid) + ")";
    if (!sminfo_set_obeyed(state_, header->attr_mod, theirs.sm_key, own_key)) {
      ++counters_.sminfo_sets_refused;
      spdlog::warn("SMInfo Set (modifier {}) from {} refused in state {}: {}", header->attr_mod, from,
                   mad::to_string(state_),
                   sm_key_matches(theirs.sm_key, own_key) ? "no such transition" : "wrong SM_Key");
    } else {
      switch (header->attr_mod) {
        case mad::sminfo_mod::kHandover:
          master_guid_ = 0;
          become(mad::SmState::kMaster, "HANDOVER from " + from);
          schedule_heavy_sweep(std::chrono::milliseconds(0), "handover");
          break;
        case mad::sminfo_mod::kDisable: become(mad::SmState::kNotActive, "disabled by " + from); break;
        case mad::sminfo_mod::kStandby: become(mad::SmState::kStandby, "told to stand by by " + from); break;
        case mad::sminfo_mod::kDiscover: become(mad::SmState::kDiscovering, "told to discover by " + from); break;
        default: break;
      }
    }
  } else if (state_ == mad::SmState::kMaster && theirs.guid != 0 && theirs.guid != own_guid_ &&
             theirs.state == mad::SmState::kStandby && sm_key_matches(theirs.sm_key, own_key) &&
             sm_outranks(theirs.priority, theirs.guid, policy_.sm.priority, own_guid_)) {
    // smd's standbys put their own SMInfo into the polls they send: a poll from a standby that outranks
    // us is the cue to sweep, find it and hand over, without waiting for a trap.
    schedule_heavy_sweep(std::chrono::milliseconds(0), "polled by higher-priority SM " + format_guid(theirs.guid));
  }
  mad::SmpData data{};
  own_sminfo(sm_key_in_response(theirs.sm_key, own_key)).encode(data);
  std::array<std::uint8_t, mad::kMadSize> resp{};
  mad::make_smp_response(mad, 0, data, resp);
  if (auto st = transport_->send_response(info, resp); !st.ok()) {
    spdlog::warn("SMInfo response: {}", st.error().message);
  }
}

void Daemon::repress_trap(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info) {
  ++counters_.traps_received;
  const mad::Notice notice = mad::Notice::decode(mad::smp_data(mad));
  // TrapRepress (IBA 14.2.5.1): the same MAD back with method 0x07 stops the producer repeating it.
  std::array<std::uint8_t, mad::kMadSize> repress;
  std::copy(mad.begin(), mad.end(), repress.begin());
  repress[3] = static_cast<std::uint8_t>(mad::Method::kTrapRepress);
  if (auto st = transport_->send_response(info, repress); !st.ok()) {
    spdlog::debug("TrapRepress: {}", st.error().message);
  }
  if (notice.is_generic && notice.trap_number == mad::trap::kCapabilityMaskChange && own_lid_ != 0 &&
      notice.issuer_lid == own_lid_) {
    // Our own port announcing the IsSM bit this SM set: nothing in the fabric changed.
    spdlog::debug("trap {} from our own LID {}: no sweep", notice.trap_number, notice.issuer_lid);
    return;
  }
  if (notice.is_generic &&
      (notice.trap_number == mad::trap::kLinkStateChange || notice.trap_number == mad::trap::kCapabilityMaskChange)) {
    spdlog::info("trap {} from LID {}", notice.trap_number, notice.issuer_lid);
    if (change_seen_ == Clock::time_point{}) change_seen_ = Clock::now();
    // A link change is read from the switches that report it (an incremental sweep); a capability
    // change, from the whole fabric.
    if (notice.trap_number == mad::trap::kLinkStateChange && notice.issuer_lid != 0) {
      if (std::find(pending_trap_lids_.begin(), pending_trap_lids_.end(), notice.issuer_lid) ==
          pending_trap_lids_.end())
        pending_trap_lids_.push_back(notice.issuer_lid);
      schedule_heavy_sweep(kTrapDebounce, "trap " + std::to_string(notice.trap_number), SweepScope::kChanged);
    } else {
      schedule_heavy_sweep(kTrapDebounce, "trap " + std::to_string(notice.trap_number));
    }
  }
}

void Daemon::on_signal(int signo) {
  if (signo == SIGHUP) {
    notify::reloading();
    reload_policy();
    notify::ready("policy reloaded");
    schedule_heavy_sweep(std::chrono::milliseconds(0), "SIGHUP");
  } else {
    spdlog::info("signal {}: stopping", signo);
    stopping_ = true;
    return;
  }
  signals_.async_wait([this](const boost::system::error_code& ec, int s) {
    if (!ec) on_signal(s);
  });
}

void Daemon::reload_policy() {
  if (config_path_.empty()) return;
  auto perms = check_policy_file_permissions(config_path_);
  auto loaded = perms.ok() ? load_policy_file(config_path_) : Result<Policy>(perms.error());
  if (!loaded.ok()) {
    spdlog::error("reload refused, running policy kept: {}", loaded.error().message);
    return;
  }
  policy_ = std::move(loaded.value());
  runner_->set_policy(policy_);
  spdlog::info("policy reloaded from {}", config_path_);
}

void Daemon::publish(const SweepSummary* summary) {
  auto snap = std::make_shared<FabricSnapshot>();
  if (summary) {
    last_summary_ = *summary;
    last_sweep_time_ = std::chrono::system_clock::now();
  }
  snap->sm_state = mad::to_string(state_);
  snap->priority = policy_.sm.priority;
  snap->sm_port_guid = own_guid_;
  snap->sm_lid = own_lid_;
  snap->master_port_guid = state_ == mad::SmState::kMaster ? own_guid_ : master_guid_;
  snap->master_lid = state_ == mad::SmState::kMaster ? own_lid_ : 0;
  if (runner_ && runner_->topology()) {
    snap->topo = runner_->topology();
    snap->lids = runner_->lids_snapshot();
    snap->tables = runner_->tables_snapshot();
  }
  snap->last_sweep = last_summary_;
  snap->last_sweep_time = last_sweep_time_;
  snap->last_repair_ms = last_repair_ms_;
  snap->counters = counters_;
  if (policy_.roce.export_plan) snap->roce_plan_path = policy_.sm.state_dir + "/" + kRocePlanFile;
  snapshot_ = std::move(snap);
}

}  // namespace smd
