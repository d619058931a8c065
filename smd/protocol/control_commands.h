// The control socket's commands as both ends name them: the "cmd" value on the wire, the words an
// operator types to smctl, and one line saying what it does. The daemon's command table
// (smd/control/command_table.cpp) pairs every row with a handler and fails to compile when a row has
// none; smctl takes its commands' help lines from here and prints the list with --list-commands, which
// the documentation checks read (tests/integration/check_man_pages.py). A new command is one row here
// and one in the daemon's table.
#pragma once

#include <array>
#include <string_view>

namespace smd::control {

/// One command. `smctl` is the usage as typed after `smctl` ("port clear NODE PORT"; words in capitals
/// are values, [..] optional, a|b alternatives); its first word is the smctl subcommand that sends it.
struct ControlCommandInfo {
  std::string_view name;
  std::string_view smctl;
  std::string_view summary;
};

/// Every command, sorted by wire name.
inline constexpr std::array kControlCommandCatalog = {
    ControlCommandInfo{"counters", "counters [NODE] [--errors]",
                       "per-port PMA counters of the PerfMgr's last pass (perfmgr.enabled)"},
    ControlCommandInfo{"drain", "drain PART... [--force]",
                       "route around switches or cables (maintenance); refused if CA pairs would be cut off"},
    ControlCommandInfo{"dump", "dump lfts|subnet|mcfdbs|sl2vl [-o FILE]",
                       "what smd programmed, in OpenSM's dump file formats"},
    ControlCommandInfo{"export", "export roce", "a plan file the daemon wrote"},
    ControlCommandInfo{"groups", "groups", "multicast groups: MGID, MLID, members by JoinState, tree"},
    ControlCommandInfo{"lfts", "lfts [SWITCH]", "linear forwarding tables (all switches, or one)"},
    ControlCommandInfo{"log_level", "log-level LEVEL",
                       "set the running log level (the next policy reload sets log.level)"},
    ControlCommandInfo{"nodes", "nodes", "every node with LIDs, DR path and ports"},
    ControlCommandInfo{"partitions", "partitions [PKEY]", "partitions: P_Keys, members full/limited, problems"},
    ControlCommandInfo{"perfmgr", "perfmgr pass|clear",
                       "steer the Performance Manager: one counter pass now, or clear its stored counters"},
    ControlCommandInfo{"port_clear", "port clear NODE PORT", "drop a port's unhealthy mark: its cable is routed again"},
    ControlCommandInfo{"ports", "ports [--unhealthy]",
                       "cabled ports with their health: unhealthy marks, isolated cables"},
    ControlCommandInfo{"report", "report", "the last heavy sweep's summary"},
    ControlCommandInfo{"reroute", "reroute", "recompute routes and program the difference"},
    ControlCommandInfo{"route", "route SRC DST", "hop-by-hop path through the LFTs"},
    ControlCommandInfo{"sa", "sa", "Subnet Administrator: queries served by attribute, subscriptions, services"},
    ControlCommandInfo{"status", "status", "SM state, sweeps, routing engine, fabric counts, policy"},
    ControlCommandInfo{"sweep", "sweep [--light]",
                       "request a heavy sweep (runs even while sweeps are off), or a light one"},
    ControlCommandInfo{"sweeps", "sweeps off --reason TEXT | sweeps on",
                       "maintenance: turn light and trap-driven heavy sweeps off or on"},
    ControlCommandInfo{"undrain", "undrain PART...|--all", "route over drained switches or cables again"},
    ControlCommandInfo{"what_if_drain", "what-if drain PART...",
                       "what draining switches or cables would do to the routes; nothing is changed"},
};

/// The row whose wire name is `name`; throws in a constant expression (a compile error) when none is.
constexpr const ControlCommandInfo& control_command_info(std::string_view name) {
  for (const ControlCommandInfo& c : kControlCommandCatalog) {
    if (c.name == name) return c;
  }
  throw "control command not in kControlCommandCatalog";
}

/// The row whose smctl usage starts with the subcommand `word` ("port" finds port_clear); the first
/// such row. Throws like control_command_info.
constexpr const ControlCommandInfo& control_command_for_smctl(std::string_view word) {
  for (const ControlCommandInfo& c : kControlCommandCatalog) {
    if (c.smctl.substr(0, c.smctl.find(' ')) == word) return c;
  }
  throw "smctl command not in kControlCommandCatalog";
}

}  // namespace smd::control
