#include "smd/state/roce_state_writer.h"

#include <pthread.h>
#include <sched.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <numeric>

#include "routing/roce/clos_plan.h"
#include "smd/state/roce_plan_files.h"

namespace smd {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

/// Remove a disabled output; a failure is reported, a missing file is fine.
void remove_output(const fs::path& path, RoceWriteReport& report) {
  std::error_code ec;
  if (fs::remove_all(path, ec) > 0) spdlog::info("roce: {} removed (disabled by policy)", path.string());
  if (ec) report.errors.push_back(path.string() + ": cannot remove: " + ec.message());
}

void log_report(const RoceWriteReport& r, const std::string& state_dir) {
  for (const auto& e : r.errors) spdlog::error("roce: {}", e);
  if (r.unchanged) {
    spdlog::info("roce: fabric cabling unchanged, {} left as it is", state_dir);
    return;
  }
  if (r.switches == 0) return;  // both outputs off by policy, or the plan failed (an error above)
  spdlog::info(
      "roce: plan of {} hosts, {} switches built in {:.0f} ms; roce-plan.json {:.1f} MB in {:.0f} ms; frr/ {} "
      "written, {} unchanged, {} removed in {:.0f} ms",
      r.hosts, r.switches, r.plan_ms, static_cast<double>(r.plan_bytes) / 1e6, r.json_ms, r.frr_written,
      r.frr_unchanged, r.frr_removed, r.frr_ms);
}

}  // namespace

Topology in_guid_order(const Topology& topo) {
  std::vector<NodeIndex> order(topo.size());
  std::iota(order.begin(), order.end(), NodeIndex{0});
  std::sort(order.begin(), order.end(),
            [&](NodeIndex a, NodeIndex b) { return topo.node(a).guid < topo.node(b).guid; });
  std::vector<NodeIndex> position(topo.size(), kNoNode);
  Topology out;
  for (NodeIndex old : order) {
    Node copy = topo.node(old);
    for (Port& p : copy.ports) {
      p.peer = kNoNode;
      p.peer_port = 0;
    }
    // GUIDs are unique in a Topology, so adding them again cannot fail.
    if (auto added = out.add_node(std::move(copy)); added.ok()) position[old] = *added;
  }
  for (NodeIndex old = 0; old < topo.size(); ++old) {
    for (const Port& p : topo.node(old).ports) {
      if (!p.connected() || p.peer < old || (p.peer == old && p.peer_port < p.num)) continue;
      (void)out.connect(position[old], p.num, position[p.peer], p.peer_port);
    }
  }
  if (topo.sm_node != kNoNode) {
    out.sm_node = position[topo.sm_node];
    out.sm_port = topo.sm_port;
  }
  return out;
}

bool same_cabling(const Topology& a, const Topology& b) {
  if (a.size() != b.size()) return false;
  for (NodeIndex n = 0; n < a.size(); ++n) {
    const Node& x = a.node(n);
    const Node& y = b.node(n);
    if (x.guid != y.guid || x.type != y.type || x.description != y.description || x.ports.size() != y.ports.size()) {
      return false;
    }
    for (std::size_t p = 0; p < x.ports.size(); ++p) {
      if (x.ports[p].peer != y.ports[p].peer || x.ports[p].peer_port != y.ports[p].peer_port) return false;
    }
  }
  return true;
}

RoceWriteReport write_roce_state(const Topology& topo, const std::string& state_dir, const RocePolicy& policy) {
  RoceWriteReport r;
  const fs::path plan_path = fs::path(state_dir) / kRocePlanFile;
  const fs::path frr_path = fs::path(state_dir) / kFrrDir;
  if (!policy.export_plan) remove_output(plan_path, r);
  if (!policy.frr) remove_output(frr_path, r);
  if (!policy.export_plan && !policy.frr) return r;

  auto t0 = Clock::now();
  auto plan = roce::RoutePlan::build(topo);
  r.plan_ms = ms_since(t0);
  if (!plan.ok()) {
    r.errors.push_back("plan: " + plan.error().message);
    return r;
  }
  r.hosts = plan->hosts().size();
  r.switches = plan->switches().size();
  std::error_code ec;
  fs::create_directories(state_dir, ec);
  if (policy.export_plan) {
    t0 = Clock::now();
    if (auto st = write_plan_file(plan_path.string(), topo, *plan); !st.ok()) {
      r.errors.push_back(st.error().message);
    } else {
      r.plan_bytes = fs::file_size(plan_path, ec);
    }
    r.json_ms = ms_since(t0);
  }
  if (policy.frr) {
    t0 = Clock::now();
    if (auto update = update_frr_dir(frr_path.string(), *plan); !update.ok()) {
      r.errors.push_back(update.error().message);
    } else {
      r.frr_written = update->written;
      r.frr_unchanged = update->unchanged;
      r.frr_removed = update->removed;
    }
    r.frr_ms = ms_since(t0);
  }
  return r;
}

RoceStateWriter::~RoceStateWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    hurried_ = true;
    apply_priority_locked();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void RoceStateWriter::submit(std::shared_ptr<const Topology> topo, const std::string& state_dir,
                             const RocePolicy& policy) {
  {
    std::lock_guard lock(mutex_);
    pending_ = Job{std::move(topo), state_dir, policy};
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  cv_.notify_all();
}

std::optional<RoceWriteReport> RoceStateWriter::wait_idle() {
  std::unique_lock lock(mutex_);
  if (pending_ || busy_) {
    hurried_ = true;
    apply_priority_locked();
  }
  cv_.wait(lock, [&] { return !pending_ && !busy_; });
  if (!stopping_) hurried_ = false;  // later writes go back to idle priority as they start
  return last_report_;
}

void RoceStateWriter::set_always_waited_for(bool on) {
  std::lock_guard lock(mutex_);
  always_waited_for_ = on;
  apply_priority_locked();
}

void RoceStateWriter::apply_priority_locked() {
  if (!thread_.joinable()) return;
  const sched_param param{};
  const int policy = hurried_ || always_waited_for_ ? SCHED_OTHER : SCHED_IDLE;
  if (const int rc = pthread_setschedparam(thread_.native_handle(), policy, &param); rc != 0) {
    spdlog::debug("roce: writer thread priority not changed: {}", std::strerror(rc));
  }
}

RoceWriteReport RoceStateWriter::write_if_changed(const Job& job) {
  auto ordered = std::make_shared<const Topology>(in_guid_order(*job.topo));
  const fs::path plan_path = fs::path(job.state_dir) / kRocePlanFile;
  const fs::path frr_path = fs::path(job.state_dir) / kFrrDir;
  std::error_code ec;
  const bool files_there =
      (!job.policy.export_plan || fs::exists(plan_path, ec)) && (!job.policy.frr || fs::exists(frr_path, ec));
  if (written_topo_ && files_there && job.state_dir == written_dir_ &&
      job.policy.export_plan == written_policy_.export_plan && job.policy.frr == written_policy_.frr &&
      same_cabling(*ordered, *written_topo_)) {
    RoceWriteReport report;
    report.unchanged = true;
    return report;
  }
  RoceWriteReport report = write_roce_state(*ordered, job.state_dir, job.policy);
  if (report.errors.empty()) {
    written_topo_ = std::move(ordered);
    written_dir_ = job.state_dir;
    written_policy_ = job.policy;
  } else {
    written_topo_.reset();  // try again in full next time
  }
  return report;
}

void RoceStateWriter::run() {
  // SCHED_IDLE (Linux, sched(7)) while nobody waits: the plan gets only the CPU the sweep leaves, so it
  // can be built while the sweep waits on SMP round trips without ever delaying one. Without the
  // permission it runs as is.
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      // On stop, the waiting job still runs: smd --once exits right after its sweep.
      cv_.wait(lock, [&] { return pending_.has_value() || stopping_; });
      if (!pending_) return;
      job = std::move(*pending_);
      pending_.reset();
      busy_ = true;
      apply_priority_locked();
    }
    RoceWriteReport report;
    try {
      report = write_if_changed(job);
    } catch (const std::exception& e) {  // e.g. out of memory: this thread must not end the daemon
      report = RoceWriteReport{};
      report.errors.push_back(std::string("write stopped: ") + e.what());
      written_topo_.reset();
    }
    {
      int policy = -1;
      sched_param param{};
      if (pthread_getschedparam(pthread_self(), &policy, &param) == 0) report.sched_policy = policy;
    }
    log_report(report, job.state_dir);
    {
      std::lock_guard lock(mutex_);
      last_report_ = std::move(report);
      busy_ = false;
    }
    cv_.notify_all();
  }
}

}  // namespace smd
