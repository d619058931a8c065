#include "smd/smctl/smctl_commands.h"

#include <algorithm>
#include <iomanip>

#include "smd/protocol/control_commands.h"

namespace smd::smctl {
namespace {

using control::Json;

// A command's help line is the catalog's, so it reads the same in smctl --help and the daemon's errors.
std::string summary(std::string_view wire_name) {
  return std::string(control::control_command_info(wire_name).summary);
}

// Commands with no arguments: the smctl word is the wire name and the request is just {"cmd": word}.
void add_plain_queries(CLI::App& app, SmctlInvocation& inv) {
  for (const char* word : {"status", "nodes", "reroute", "report", "sa", "groups"}) {
    app.add_subcommand(word, summary(word))->callback([&inv, word] { inv.request = {{"cmd", word}}; });
  }
}

// An optional positional that becomes a request field only when given ("" = all).
void add_optional_name(CLI::App& app, std::string_view cmd, const char* field, const char* description,
                       SmctlInvocation& inv, std::string& value) {
  app.add_option(field, value, description);
  app.callback([&inv, &value, cmd = std::string(cmd), field] {
    inv.request = {{"cmd", cmd}};
    if (!value.empty()) inv.request[field] = value;
  });
}

// Queries that name a node, switch or partition, or narrow to unhealthy ports.
void add_fabric_queries(CLI::App& app, SmctlInvocation& inv, CommandArguments& v) {
  add_optional_name(*app.add_subcommand("lfts", summary("lfts")), "lfts", "switch",
                    "switch: name (node-name map), description, GUID or LID", inv, v.sw);
  auto* route = app.add_subcommand("route", summary("route"));
  route->add_option("src", v.src, "source: name (node-name map), description, GUID or LID")->required();
  route->add_option("dst", v.dst, "destination: name (node-name map), description, GUID or LID")->required();
  route->callback([&] { inv.request = {{"cmd", "route"}, {"src", v.src}, {"dst", v.dst}}; });
  add_optional_name(*app.add_subcommand("partitions", summary("partitions")), "partitions", "pkey",
                    "one partition (P_Key or name): list its member ports", inv, v.pkey);
  auto* counters = app.add_subcommand("counters", summary("counters"));
  counters->add_option("node", v.counters_node, "one node: name (node-name map), description, GUID or LID");
  counters->add_flag("--errors", v.errors_only, "only ports whose error counters moved in the last interval");
  counters->callback([&] {
    inv.request = {{"cmd", "counters"}, {"errors", v.errors_only}};
    if (!v.counters_node.empty()) inv.request["node"] = v.counters_node;
  });
  auto* ports = app.add_subcommand("ports", summary("ports"));
  ports->add_flag("--unhealthy", v.unhealthy_only, "only the ports marked unhealthy, with the reason");
  ports->callback([&] { inv.request = {{"cmd", "ports"}, {"unhealthy", v.unhealthy_only}}; });
  auto* port = app.add_subcommand("port", "act on one port");
  port->require_subcommand(1);
  auto* clear = port->add_subcommand("clear", summary("port_clear"));
  clear->add_option("node", v.clear_node, "node: name (node-name map), description, GUID or LID")->required();
  clear->add_option("port", v.clear_port, "port number")->required()->check(CLI::Range(1, 254));
  clear->callback([&] { inv.request = {{"cmd", "port_clear"}, {"node", v.clear_node}, {"port", v.clear_port}}; });
}

// Commands that steer the daemon: sweeps, the log level, the PerfMgr.
void add_steering(CLI::App& app, SmctlInvocation& inv, CommandArguments& v) {
  auto* sweep = app.add_subcommand("sweep", summary("sweep"));
  sweep->add_flag("--light", v.light,
                  "a light sweep instead (SwitchInfo of every switch; a change asks for a heavy one)");
  sweep->callback([&] {
    inv.request = {{"cmd", "sweep"}};
    if (v.light) inv.request["light"] = true;
  });
  auto* sweeps = app.add_subcommand("sweeps", summary("sweeps"));
  sweeps->require_subcommand(1);
  auto* off = sweeps->add_subcommand("off", "no light sweeps; traps are logged and their heavy sweeps held back");
  off->add_option("--reason", v.off_reason, "why (status shows it)")->required();
  off->callback([&] { inv.request = {{"cmd", "sweeps"}, {"on", false}, {"reason", v.off_reason}}; });
  sweeps->add_subcommand("on", "sweep again; one heavy sweep if any was held back")->callback([&] {
    inv.request = {{"cmd", "sweeps"}, {"on", true}};
  });
  auto* log_level = app.add_subcommand("log-level", summary("log_level"));
  // The daemon checks the name (smctl links no policy code) and lists the known ones when it is wrong.
  log_level->add_option("level", v.level, "trace, debug, info, warn, error, critical, off")->required();
  log_level->callback([&] { inv.request = {{"cmd", "log_level"}, {"level", v.level}}; });
  auto* perfmgr = app.add_subcommand("perfmgr", summary("perfmgr"));
  perfmgr->require_subcommand(1);
  const std::pair<const char*, const char*> actions[] = {
      {"pass", "run one counter pass now"},
      {"clear", "zero the stored counter totals and rates (the ports' counters stay)"}};
  for (const auto& [action, description] : actions) {
    perfmgr->add_subcommand(action, description)->callback([&inv, action] {
      inv.request = {{"cmd", "perfmgr"}, {"action", action}};
    });
  }
}

// Commands that hand back a file's content: a plan the daemon wrote, or an OpenSM-format dump.
void add_exports(CLI::App& app, SmctlInvocation& inv, CommandArguments& v) {
  auto* exp = app.add_subcommand("export", summary("export"));
  exp->add_option("what", v.what, "what to export")->required()->check(CLI::IsMember({"roce"}));
  exp->callback([&] { inv.request = {{"cmd", "export"}, {"what", v.what}}; });
  auto* dump = app.add_subcommand("dump", summary("dump"));
  dump->add_option("what", v.dump_what,
                   "lfts (opensm-lfts.dump), subnet (opensm-subnet.lst), mcfdbs (opensm.mcfdbs), "
                   "sl2vl (opensm-sl2vl.dump)")
      ->required()
      ->check(CLI::IsMember({"lfts", "subnet", "mcfdbs", "sl2vl"}));
  dump->add_option("-o,--output", inv.dump_file, "write the text to this file (replaced whole) instead of stdout");
  dump->callback([&] { inv.request = {{"cmd", "dump"}, {"what", v.dump_what}}; });
}

// Maintenance: drain switches or cables, ask what a drain would do, undrain.
void add_drains(CLI::App& app, SmctlInvocation& inv, CommandArguments& v) {
  constexpr const char* kPart =
      "switch (node GUID or NodeDescription) or cable (GUID/PORT or NAME[PORT], either end)";
  auto* drain = app.add_subcommand("drain", summary("drain"));
  drain->add_option("PART", v.parts, kPart)->required();
  drain->add_flag("--force", v.force, "drain even when CA pairs lose every path");
  drain->callback([&] { inv.request = {{"cmd", "drain"}, {"parts", v.parts}, {"force", v.force}}; });
  auto* undrain = app.add_subcommand("undrain", summary("undrain"));
  // Parts or --all, exactly one of the two: a usage error (exit 2) otherwise, as for every command.
  auto* undrain_parts = undrain->add_option("PART", v.parts, kPart);
  undrain->add_flag("--all", v.all, "every drained part")->excludes(undrain_parts);
  undrain->require_option(1);
  undrain->callback([&] {
    inv.request = {{"cmd", "undrain"}, {"all", v.all}};
    if (!v.parts.empty()) inv.request["parts"] = v.parts;
  });
  auto* what_if = app.add_subcommand("what-if", "what a maintenance step would do; nothing is changed");
  what_if->require_subcommand(1);
  auto* what_if_drain = what_if->add_subcommand("drain", summary("what_if_drain"));
  what_if_drain->add_option("PART", v.parts, kPart)->required();
  what_if_drain->callback([&] { inv.request = {{"cmd", "what_if_drain"}, {"parts", v.parts}}; });
}

}  // namespace

void add_smctl_commands(CLI::App& app, SmctlInvocation& inv, const std::string& default_socket) {
  inv.socket = default_socket;
  // Commands hand options they do not know back to smctl, so `smctl status --json` works as OpenSM
  // users type it. Set before any command is added: each command takes it over when it is made.
  app.fallthrough();
  app.add_option("--socket", inv.socket, "control socket of smd")->capture_default_str()->envname("SMCTL_SOCKET");
  app.add_option("--instance", inv.instance,
                 "talk to smd --instance NAME: its socket is NAME/control.socket in the folder of --socket")
      ->envname("SMCTL_INSTANCE");
  app.add_flag("--json", inv.json, "print the daemon's raw JSON response");
  app.add_option("--timeout", inv.timeout_s, "seconds to wait for the answer")->capture_default_str();
  // Like --version: print and stop before CLI11 asks for a command.
  app.add_flag_callback(
         "--list-commands",
         [] {
           print_command_list(std::cout);
           throw CLI::Success();
         },
         "list the control commands: smctl usage and what each does")
      ->trigger_on_parse();
  add_plain_queries(app, inv);
  add_fabric_queries(app, inv, inv.args);
  add_steering(app, inv, inv.args);
  add_exports(app, inv, inv.args);
  add_drains(app, inv, inv.args);
}

void print_command_list(std::ostream& out) {
  std::size_t width = 0;
  for (const auto& c : control::kControlCommandCatalog) width = std::max(width, c.smctl.size());
  for (const auto& c : control::kControlCommandCatalog) {
    out << std::left << std::setw(static_cast<int>(width + 2)) << c.smctl << c.summary << "\n";
  }
}

}  // namespace smd::smctl
