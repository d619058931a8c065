// Supervision: what the process's supervisors send the daemon and expect back, owned apart from the Daemon:
// the signals (SIGTERM/SIGINT stop, SIGHUP reloads the policy, SIGUSR1 reopens the log after logrotate) and
// systemd's watchdog (WatchdogSec=), pinged from the event loop so a wedged loop gets the unit restarted.
// What a signal means is the Daemon's to decide; this only waits for them on the loop's thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>

namespace smd {

class Supervision {
 public:
  /// `on_signal(signo)` runs on `io`'s thread for each of SIGTERM, SIGINT, SIGHUP and SIGUSR1 caught, and
  /// returns whether to wait for the next one (false once the daemon is stopping).
  Supervision(boost::asio::io_context& io, std::function<bool(int)> on_signal);

  /// Wait for the signals and, when systemd asked
  /// for a watchdog (WATCHDOG_USEC), ping it at half its interval. The ping changes nothing, so it is sent
  /// even while a sweep runs.
  void start();
  /// Stop waiting and pinging (shut-down). Idempotent.
  void cancel();

 private:
  void arm_signals();
  void arm_watchdog();

  boost::asio::signal_set signals_;
  boost::asio::steady_timer watchdog_timer_;
  std::function<bool(int)> on_signal_;
};

}  // namespace smd
