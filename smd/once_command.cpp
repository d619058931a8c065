#include "smd/once_command.h"

#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "mad/umad_port.h"
#include "mad/umad_transport.h"
#include "smd/summary_text.h"
#include "smd/sweep.h"

namespace smd {

int run_once(const Policy& policy, std::ostream& out) {
  mad::UmadPortOptions port_opts;
  port_opts.ca_name = policy.sm.ca;
  port_opts.port_num = policy.sm.port == 0 ? -1 : static_cast<int>(policy.sm.port);
  port_opts.port_guid = policy.sm.port_guid;
  auto port = mad::UmadPort::open(port_opts);
  if (!port.ok()) {
    spdlog::error("cannot open the SM port: {}", port.error().message);
    return 2;
  }
  spdlog::info("SM port: {}", port.value()->describe());

  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  mad::UmadTransportOptions mad_opts;
  mad_opts.window = policy.mad.window;
  mad_opts.timeout_ms = policy.mad.timeout_ms;
  mad_opts.retries = policy.mad.retries;
  mad::UmadTransport transport(io, std::move(port.value()), mad_opts);

  SweepRunner runner(io, transport, policy);
  int rc = 1;
  const unsigned attempts = 1 + policy.sm.max_resweeps;
  for (unsigned attempt = 1; attempt <= attempts; ++attempt) {
    const SweepSummary s = runner.heavy_sweep();
    print_summary(out, s, attempt);
    if (s.subnet_up) {
      rc = 0;
      break;
    }
    if (attempt < attempts) spdlog::warn("sweep {} left problems; re-sweeping", attempt);
  }
  transport.stop();
  return rc;
}

}  // namespace smd
