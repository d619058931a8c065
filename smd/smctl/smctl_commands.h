// smctl's command line: the global options and one CLI11 subcommand per control command, each described
// by its line of the shared catalog (smd/protocol/control_commands.h), so `smctl --help`, the daemon's
// "unknown command" error and the man-page check read the same words. Parsing fills an SmctlInvocation;
// nothing here talks to the daemon.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "smd/protocol/control_protocol.h"

namespace smd::smctl {

/// A command's arguments as parsed, before its callback turns them into the request.
struct CommandArguments {
  std::string sw, src, dst, pkey, counters_node, clear_node, level, off_reason, what, dump_what;
  std::vector<std::string> parts;  ///< drain, undrain, what-if drain: switch and cable names
  unsigned clear_port = 0;
  bool light = false, errors_only = false, unhealthy_only = false, force = false, all = false;
};

/// What one command line asks for: where to connect, how to print, and the request to send.
struct SmctlInvocation {
  std::string socket;       ///< --socket (SMCTL_SOCKET), the default policy's control.socket otherwise
  std::string instance;     ///< --instance (SMCTL_INSTANCE); "" = none
  bool json = false;        ///< --json: print the daemon's raw answer
  unsigned timeout_s = 30;  ///< --timeout, seconds
  control::Json request;    ///< {"cmd": ..., fields}, set by the subcommand's callback
  std::string dump_file;    ///< dump -o FILE; "" = stdout
  CommandArguments args;    ///< the chosen command's arguments (the callbacks read them)
};

/// Register the global options, --list-commands and every command on `app` (which must have no
/// subcommands yet); app.parse() then fills `inv`, which must outlive `app`. `default_socket` is what --socket defaults
/// to.
void add_smctl_commands(CLI::App& app, SmctlInvocation& inv, const std::string& default_socket);

/// One line per control command: its smctl usage, padded, then its summary (what --list-commands prints).
void print_command_list(std::ostream& out);

}  // namespace smd::smctl
