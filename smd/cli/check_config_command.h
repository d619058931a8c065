// `smd check-config FILE`: validate a policy file the way the daemon would load it, without touching the
// fabric, so an operator can check an edit before a restart or reload.
#pragma once

#include <ostream>
#include <string>

// Only CLI::App& is named here: the full CLI11 header (one of the costliest to compile) stays in the .cpp
// files that build or parse an App, so the tests of the command bodies do not pay for it.
namespace CLI {
class App;
}  // namespace CLI

namespace smd {

/// Register the check-config subcommand on `app`. On success it prints "FILE: OK" and a one-line summary of
/// the effective policy on stdout; on failure the error on stderr, and parsing ends with CLI::RuntimeError(2),
/// which CLI11_PARSE / app.exit() turn into exit code 2 without printing anything more.
void add_check_config_command(CLI::App& app);

/// The body of check-config, separated from CLI11 for testing: loads `path`, then (unless
/// `check_permissions` is false) refuses a group/other-writable file as the daemon does.
/// Returns the process exit code: 0 valid, 2 invalid or unreadable.
int run_check_config(const std::string& path, bool check_permissions, std::ostream& out, std::ostream& err);

}  // namespace smd
