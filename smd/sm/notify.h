// systemd service notifications (sd_notify(3)) for a Type=notify unit with WatchdogSec=. Every call is
// a no-op returning false when NOTIFY_SOCKET is unset, so the daemon runs the same outside systemd.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace smd::notify {

/// "READY=1" plus "STATUS=<status>": start-up is done (socket bound, first sweep scheduled).
/// Returns true when a message was sent; false when not under systemd or the send failed.
bool ready(const std::string& status);
/// "STATUS=<text>": one line shown by `systemctl status` ("MASTER, 22 nodes, subnet up").
bool status(const std::string& text);
/// "RELOADING=1" plus "MONOTONIC_USEC=<now>": a policy reload begins; call ready() when it is done.
bool reloading();
/// "STOPPING=1": shutdown begins.
bool stopping();
/// "WATCHDOG=1": the io_context is alive. Send every watchdog_interval() / 2.
bool watchdog();
/// The unit's WatchdogSec for this process (sd_watchdog_enabled), nullopt when no watchdog is armed.
std::optional<std::chrono::microseconds> watchdog_interval();

}  // namespace smd::notify
