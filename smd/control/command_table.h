// The control socket's commands as one table: name -> handler, with a one-line summary. handle_request
// (requests.h) looks the name up here, and the "unknown command" error lists the table's names. The names
// and summaries are the catalog smctl shares (smd/protocol/control_commands.h); command_table.cpp does not
// compile unless every catalog row has its handler here, so a new command is one row in each.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "smd/control/daemon_control.h"
#include "smd/protocol/control_protocol.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::control {

/// What one command's handler gets. `snap` is the daemon's snapshot, resolved before the handler runs
/// when the row says it needs one (never null then); `requester` names who asked ("uid 0 pid 4242", or "").
struct CommandContext {
  const Json& request;
  DaemonControl& control;
  const std::string& requester;
  std::shared_ptr<const FabricSnapshot> snap;

  /// " by uid 0 pid 4242" (or "") for the reasons a request hands the daemon, so its log names who asked.
  std::string by() const { return requester.empty() ? "" : " by " + requester; }
};

/// How an answer that is computed later reaches the client (called once, on the daemon's thread).
using ControlReply = std::function<void(Json)>;

/// One row: the "cmd" value, what it does (the catalog's line, for help and errors), whether it reads the
/// snapshot, and the handler, which answers with ok_response or error_response and may throw a
/// Json::exception for a field of the wrong type (handle_request turns that into an error response).
/// A row whose work must not hold up the daemon's thread (the what-if) has `start` instead of `handle`:
/// it hands the work off and calls the reply when it is done.
struct ControlCommand {
  std::string_view name;
  std::string_view summary;
  bool needs_snapshot = true;
  Json (*handle)(const CommandContext& ctx) = nullptr;
  void (*start)(const CommandContext& ctx, ControlReply reply) = nullptr;
};

/// Every command, sorted by name (a unit test holds it to that, so the error's list reads sorted).
std::span<const ControlCommand> control_commands();

/// The row named `name`, or nullptr.
const ControlCommand* find_control_command(std::string_view name);

/// "counters, export, ...": the names of control_commands() for the unknown-command error.
std::string control_command_names();

}  // namespace smd::control
