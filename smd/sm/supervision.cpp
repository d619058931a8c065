#include "smd/sm/supervision.h"

#include <csignal>

#include "smd/sm/notify.h"

namespace smd {

Supervision::Supervision(boost::asio::io_context& io, std::function<bool(int)> on_signal)
    : signals_(io, SIGTERM, SIGINT, SIGHUP), watchdog_timer_(io), on_signal_(std::move(on_signal)) {
  signals_.add(SIGUSR1);
}

void Supervision::start() {
  arm_signals();
  arm_watchdog();
}

void Supervision::cancel() {
  watchdog_timer_.cancel();
  signals_.cancel();
}

void Supervision::arm_signals() {
  signals_.async_wait([this](const boost::system::error_code& ec, int signo) {
    if (!ec && on_signal_(signo)) arm_signals();
  });
}

void Supervision::arm_watchdog() {
  const auto interval = notify::watchdog_interval();
  if (!interval) return;
  watchdog_timer_.expires_after(*interval / 2);
  watchdog_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    notify::watchdog();
    arm_watchdog();
  });
}

}  // namespace smd
