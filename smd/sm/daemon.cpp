// Daemon lifecycle: open the SM port, start the management endpoints, run the loop, stop.
#include "smd/sm/daemon.h"

#include <spdlog/spdlog.h>

#include <csignal>
#include <utility>

#include "config/policy_summary.h"
#include "smd/control/metrics_text.h"
#include "smd/sm/notify.h"
#include "smd/sm/sm_port.h"

namespace smd {

namespace {
std::string sa_services_file(const Policy& p) {
  return p.sa.services_file.empty() ? p.sm.state_dir + "/sa-services.json" : p.sa.services_file;
}
}  // namespace

Daemon::Daemon(Policy policy, std::string config_path)
    : policy_(std::move(policy)),
      sweeps_(io_, [this](DaemonEvent e) { post(std::move(e)); }),
      election_(io_, [this](DaemonEvent e) { post(std::move(e)); }),
      mcast_(io_, [this](DaemonEvent e) { post(std::move(e)); }),
      supervision_(io_, [this](int signo) { return on_signal(signo); }),
      reloads_(std::move(config_path)),
      runtime_(policy_.log.level) {
  publish(nullptr);
}

Daemon::~Daemon() = default;

int Daemon::run() {
  auto port = open_sm_port(policy_);
  if (!port.ok()) {
    spdlog::error("cannot open the SM port: {}", port.error().message);
    return 2;
  }
  local_.guid = port.value()->port_guid();
  local_.port = static_cast<PortNum>(port.value()->port_num());
  spdlog::info("SM port {}; priority {}; state DISCOVERING", port.value()->describe(), policy_.sm.priority);
  spdlog::info("policy {} takes effect ({}): {}", reloads_.generation(), policy_.source, summarize_policy(policy_));

  auto guard = boost::asio::make_work_guard(io_);
  sa_publisher_.set_partition_policy(policy_.partitions);
  open_transport(std::move(port.value()), start_sa_agent());
  load_drains();
  health_policy_changed();
  if (sa_) {
    publish_sa();
    sa_->start();
  }
  // Opening the issm device set IsSM; an earlier SM process on this port may have left the simulator (or
  // the port) in a state that clears it again, which every later sweep checks too.
  (void)ensure_is_sm("start-up");

  supervision_.start();
  endpoints_.start(io_, *this, policy_, [this] { return snapshot(); });
  publish(nullptr);  // the bound metrics address, for `smctl status`
  schedule_heavy_sweep(Clock::now(), "start-up");
  run_loop();
  shut_down();
  return events_.exit_code();
}

mad::GmpSink Daemon::start_sa_agent() {
  if (!policy_.sa.enabled) return {};
  sa::SaAgentOptions sa_options;
  sa_options.queue_depth = policy_.sa.queue_depth;
  sa_options.report_retries = policy_.sa.report_retries;
  sa_options.report_timeout_ms = policy_.sa.report_timeout_ms;
  sa_options.services_file = sa_services_file(policy_);
  sa_options.groups_file = policy_.sm.state_dir + "/sa-groups.json";
  sa_options.alias_guids_file = policy_.sm.state_dir + "/sa-alias-guids";
  sa_options.alias_guid_byte = static_cast<std::uint8_t>(policy_.sa.alias_guid_byte);
  sa_options.m_key = policy_.security.m_key;
  sa_options.table_timeout_ms = policy_.mad.timeout_ms;
  sa_options.table_retries = policy_.mad.retries;
  // The SA thread answers through the transport's thread-safe GMP send; the transport outlives it.
  sa_ = std::make_unique<sa::SaAgent>(
      sa_options,
      [this](std::span<const std::uint8_t> mad, const mad::MadAddress& to) { return transport_->send_gmp(mad, to); });
  sa_->set_mcast_sink([this](std::vector<sa::McastGroupMembers> groups) { on_groups_changed(std::move(groups)); });
  return [agent = sa_.get()](std::span<const std::uint8_t, mad::kMadSize> mad, const mad::MadAddress& from,
                             bool sm_idle) { (void)agent->submit(mad, from, sm_idle); };
}

void Daemon::open_transport(std::unique_ptr<mad::MadChannel> port, mad::GmpSink sa_sink) {
  // The PerfMgr exists from the start (its thread runs only as MASTER with perfmgr.enabled): the transport's
  // PMA sink is fixed for its life. It sends through the transport, which outlives it.
  // The per-port families are rendered once per pass, off the SM's thread, when there is an endpoint to serve them.
  if (policy_.metrics.enabled) health_.perf().set_renderer(render_perfmgr_metrics);
  mad::GmpSink pma_sink = [agent = &health_.perf()](std::span<const std::uint8_t, mad::kMadSize> mad,
                                                    const mad::MadAddress&, bool) { agent->submit(mad); };
  // The CC manager likewise exists from the start, so the transport's class-0x21 sink is fixed.
  cc_ = std::make_unique<CcAgent>(
      [this](std::span<const std::uint8_t> mad, const mad::MadAddress& to) { return transport_->send_gmp(mad, to); });
  mad::GmpSink cc_sink = [agent = cc_.get()](std::span<const std::uint8_t, mad::kMadSize> mad, const mad::MadAddress&,
                                             bool) { agent->submit(mad); };
  transport_ = std::make_unique<mad::UmadTransport>(io_, std::move(port), transport_options(policy_),
                                                    std::move(sa_sink), std::move(pma_sink), std::move(cc_sink));
  transport_->set_unsolicited_handler([this](std::span<const std::uint8_t, mad::kMadSize> mad,
                                             const mad::UnsolicitedInfo& info) { on_unsolicited(mad, info); });
  runner_ = std::make_unique<SweepRunner>(io_, *transport_, policy_);
}

// Every handler only queues events; they are applied here, between handlers, never inside one. A sweep
// that an event starts re-enters io_ from its SmpBatch::wait(), and what runs there queues in turn.
void Daemon::run_loop() {
  while (!events_.stopping()) {
    io_.run_one();
    apply_events();
  }
}

// The SA, PerfMgr and CC threads send through the transport: they stop before it does.
void Daemon::shut_down() {
  notify::stopping();
  endpoints_.stop();
  sweeps_.cancel();
  sweeps_.cancel_light();
  election_.cancel_poll();
  supervision_.cancel();
  if (sa_) sa_->stop();
  health_.perf().stop();
  if (cc_) cc_->stop();
  transport_->stop();
  spdlog::info("smd stopped");
  spdlog::default_logger()->flush();  // warnings still being counted get their "[N more in T s]" line
}

}  // namespace smd
