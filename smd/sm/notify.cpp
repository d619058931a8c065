#include "smd/sm/notify.h"

#include <systemd/sd-daemon.h>
#include <time.h>

#include <cstdlib>

namespace smd::notify {
namespace {

// sd_notify() returns 0 when NOTIFY_SOCKET is unset and < 0 on a failed send; both mean "not sent".
// unset_environment stays 0: later calls (watchdog pings, status) need the variable too.
bool send(const std::string& message) {
  if (std::getenv("NOTIFY_SOCKET") == nullptr) return false;
  return sd_notify(0, message.c_str()) > 0;
}

}  // namespace

bool ready(const std::string& status_text) { return send("READY=1\nSTATUS=" + status_text); }

bool status(const std::string& text) { return send("STATUS=" + text); }

bool reloading() {
  // systemd >= 253 wants the reload's CLOCK_MONOTONIC time with RELOADING=1 (Type=notify-reload);
  // older ones ignore the extra field.
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  const long long usec = static_cast<long long>(ts.tv_sec) * 1000000LL + ts.tv_nsec / 1000;
  return send("RELOADING=1\nMONOTONIC_USEC=" + std::to_string(usec));
}

bool stopping() { return send("STOPPING=1"); }

bool watchdog() { return send("WATCHDOG=1"); }

std::optional<std::chrono::microseconds> watchdog_interval() {
  std::uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0) return std::nullopt;
  return std::chrono::microseconds(usec);
}

}  // namespace smd::notify
