// The Daemon's side of the operator's drains and the what-if (issue 46 item 3): `smctl drain` and
// `smctl undrain` change drains_ at once (the answer says what was recorded) and queue a heavy sweep; every
// heavy sweep hands drains_ to the runner before it starts (daemon_sweeps.cpp), so a drain recorded while a
// sweep runs takes effect in the next one, whole. `smctl what-if drain` runs on what_if_'s thread.
#include <spdlog/spdlog.h>

#include <utility>

#include "routing/base/safe_text.h"
#include "routing/isolation/routed_topology.h"
#include "smd/sm/daemon.h"
#include "smd/sm/drain_routes.h"
#include "smd/sm/what_if_job.h"

namespace smd {
namespace {

control::Json described(const Topology* topo, const std::vector<DrainRecord>& records) {
  control::Json out = control::Json::array();
  for (const DrainRecord& r : records) out.push_back(describe_drain(topo, r));
  return out;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + printable_text(p);
  return out;
}

}  // namespace

void Daemon::load_drains() {
  auto loaded = drains_.load();
  if (!loaded) {
    spdlog::error("drains: {}: no part is drained until the file is readable", loaded.error().message);
    return;
  }
  // A file of junk may be a million lines: the first few named, the rest counted (one log line, not 155 MB).
  constexpr std::size_t kProblemsLogged = 5;
  for (std::size_t i = 0; i < loaded->size() && i < kProblemsLogged; ++i) {
    spdlog::error("drains: {} (line skipped)", (*loaded)[i]);
  }
  if (loaded->size() > kProblemsLogged) {
    spdlog::error("drains: {}: {} more line(s) skipped (the first {} named above)", drains_.path(),
                  loaded->size() - kProblemsLogged, kProblemsLogged);
  }
  if (!drains_.records().empty()) {
    spdlog::warn("drains: {} part(s) stay drained from before (state_dir/{}; smctl undrain to route over them)",
                 drains_.records().size(), kDrainFileName);
  }
}

Result<control::Json> Daemon::request_drain(const std::vector<std::string>& parts, bool force,
                                            const std::string& requester) {
  const std::shared_ptr<const Topology> topo = runner_ ? runner_->topology() : nullptr;
  if (!topo) {
    return make_error(ErrorCode::kInvalidInput, "smctl drain: no fabric discovered yet: names cannot be resolved");
  }
  // The routes the next sweep would make, from what the last programming sweep left; a standby programs
  // nothing and its snapshots may be older than its topology, so only the master checks.
  DrainRouteCheck routes;
  if (local_.state == mad::SmState::kMaster && runner_) {
    DrainRouteInput in{topo,
                       runner_->routed_topology_snapshot(),
                       runner_->lids_snapshot(),
                       runner_->tables_snapshot(),
                       runner_->isolation_requests(),
                       policy_.routing};
    routes = [in = std::move(in)](std::span<const CableEnd> drains) { return drain_routes(in, drains); };
  }
  auto change = drains_.drain(*topo, parts, force, routes);
  if (!change) {
    spdlog::info("smctl drain {} by {}: refused: {}", joined(parts), requester, change.error().message);
    return change.error();
  }
  control::Json out{{"drained", described(topo.get(), change->changed)},
                    {"already", described(topo.get(), change->already)}};
  if (!change->separated.empty()) out["separated"] = change->separated;
  if (!change->unroutable.empty()) {
    out["unroutable"] = change->unroutable;
    out["fallback_engine"] = std::string(kDrainFallbackEngine);
  }
  if (change->changed.empty()) return out;
  if (change->separated.empty() && change->unroutable.empty()) {
    spdlog::warn("smctl drain {} by {}: routes go around it from the next heavy sweep", joined(parts), requester);
  }
  if (!change->separated.empty()) {
    spdlog::warn("smctl drain --force {} by {}: cuts off {}", joined(parts), requester, change->separated);
  }
  if (const std::string own = sm_own_drain(*topo, change->changed); !own.empty()) {
    out["sm_own"] = own;
    spdlog::warn("smctl drain {} by {}: drains {}: no LID route from the SM reaches the fabric, so the PerfMgr "
                 "polls nothing until it is undrained",
                 joined(parts), requester, own);
  }
  if (!change->unroutable.empty()) {
    spdlog::warn(
        "smctl drain --force {} by {}: no engine of the chain routes the fabric with it drained ({}); the "
        "sweeps route with {} until it is undrained",
        joined(parts), requester, change->unroutable, kDrainFallbackEngine);
  }
  publish(nullptr);
  request_heavy_sweep("smctl drain " + joined(parts) + " by " + requester);
  return out;
}

Result<control::Json> Daemon::request_undrain(const std::vector<std::string>& parts, bool all,
                                              const std::string& requester) {
  const std::shared_ptr<const Topology> topo = runner_ ? runner_->topology() : nullptr;
  auto change = drains_.undrain(topo.get(), parts, all);
  if (!change) return change.error();
  control::Json out{{"undrained", described(topo.get(), change->changed)},
                    {"not_drained", described(topo.get(), change->already)}};
  if (change->changed.empty()) return out;
  const std::string what = all ? std::string("--all") : joined(parts);
  spdlog::warn("smctl undrain {} by {}: routes use it again from the next heavy sweep", what, requester);
  publish(nullptr);
  request_heavy_sweep("smctl undrain " + what + " by " + requester);
  return out;
}

void Daemon::what_if_drain(const std::vector<std::string>& parts, std::function<void(Result<control::Json>)> done) {
  if (local_.state != mad::SmState::kMaster) {
    done(make_error(ErrorCode::kDeclined, std::string("smctl what-if drain: this SM is ") +
                                                  mad::to_string(local_.state) + ": ask the master"));
    return;
  }
  WhatIfInput in;
  if (runner_) {
    in.topo = runner_->routed_topology_snapshot();
    in.fabric = runner_->topology();
    in.lids = runner_->lids_snapshot();
    in.tables = runner_->tables_snapshot();
  }
  in.parts = parts;
  in.routing = policy_.routing;
  in.partitions = policy_.partitions;
  // kTimeout: the code whose caller asks again later (routing/base/status.h); smctl exits 6 on it.
  const bool started = what_if_.start([in = std::move(in)] { return run_what_if_drain(in); }, done);
  if (!started) {
    done(make_error(ErrorCode::kTimeout, "smctl what-if drain: another what-if is running; ask again when it is done"));
  }
}

}  // namespace smd
