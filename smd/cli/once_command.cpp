#include "smd/cli/once_command.h"

#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "mad/transport/umad_transport.h"
#include "smd/cli/summary_text.h"
#include "smd/sm/sm_port.h"
#include "smd/sm/sweep_decision.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

int run_once(const Policy& policy, std::ostream& out) {
  auto port = open_sm_port(policy);
  if (!port.ok()) {
    spdlog::error("cannot open the SM port: {}", port.error().message);
    return 2;
  }

  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  mad::UmadTransport transport(io, std::move(port.value()), transport_options(policy));

  SweepRunner runner(io, transport, policy);
  runner.set_route_proofs(false);      // no repair follows
  runner.set_roce_during_sweep(true);  // the process ends when the sweep and the RoCE files are both done
  int rc = 1;
  const unsigned attempts = 1 + policy.sm.max_resweeps;
  SweepScope scope = SweepScope::kFull;
  for (unsigned attempt = 1; attempt <= attempts; ++attempt) {
    const SweepSummary s = runner.heavy_sweep({}, scope);
    print_summary(out, s, attempt);
    if (s.subnet_up) {
      rc = 0;
      break;
    }
    if (attempt == attempts) break;
    // The problems' codes say what helps (smd/sm/sweep_decision.h): usually a re-sweep that asks again only
    // for what the sweep before could not read, so on a lossy fabric each one has less to lose than the
    // last; a full one after contradicting answers; none when only the operator can fix the fabric.
    const SweepDecision next =
        decide_after_failed_sweep(s.problems, attempt, policy.sm.max_resweeps, policy.sm.sweep_interval_s);
    if (next.next == NextSweep::kWaitForOperator) {
      spdlog::warn("sweep {} left problems no re-sweep can fix ({}); not re-sweeping", attempt, next.reason);
      break;
    }
    scope = next.scope;
    spdlog::warn("sweep {} left problems; re-sweeping", attempt);
  }
  // The RoCE plan (policy roce.*) is written off the sweep's path; it must be complete before we exit.
  runner.wait_for_roce_files();
  transport.stop();
  return rc;
}

}  // namespace smd
