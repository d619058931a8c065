// smctl: ask a running smd over its control socket.
//   smctl [--socket PATH] [--instance NAME] [--json] [--timeout S]
//         status|nodes|lfts [SWITCH]|route SRC DST|reroute|report|sa|partitions [PKEY]|
//         groups|counters [NODE] [--errors]|ports [--unhealthy]|port clear NODE PORT|export roce|
//         dump lfts|subnet|mcfdbs|sl2vl [-o FILE]|
//         sweep [--light]|sweeps off --reason TEXT|sweeps on|log-level LEVEL|perfmgr pass|perfmgr clear
// The global options may also follow the command (`smctl status --json`); SMCTL_SOCKET names the socket
// when --socket is not given, SMCTL_INSTANCE the instance when --instance is not. An instance's socket is
// the socket path with the folder NAME put before the file name, the rule `smd --instance NAME` follows.
// Exit codes: 0 ok, 1 the daemon answered with an error, 2 usage error, no connection, or `dump -o FILE` unwritable.

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "config/policy.h"
#include "routing/base/safe_text.h"
#include "smd/protocol/instance_name.h"
#include "smd/smctl/dump_output.h"
#include "smd/smctl/smctl_client.h"
#include "smd/smctl/smctl_render.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitDaemonError = 1;
constexpr int kExitNoConnection = 2;

}  // namespace

int main(int argc, char** argv) {
  using smd::control::Json;
  CLI::App app{"smctl: query and steer the smd InfiniBand subnet manager"};
  app.set_version_flag("--version", std::string("smctl ") + SMD_VERSION);
  app.require_subcommand(1);
  std::string socket = smd::ControlPolicy{}.socket;
  std::string instance;
  bool json = false;
  unsigned timeout_s = 30;
  // Commands hand options they do not know back to smctl, so `smctl status --json` works as OpenSM
  // users type it. Set before any command is added: each command takes it over when it is made.
  app.fallthrough();
  app.add_option("--socket", socket, "control socket of smd")->capture_default_str()->envname("SMCTL_SOCKET");
  app.add_option("--instance", instance,
                 "talk to smd --instance NAME: its socket is NAME/control.socket in the folder of --socket")
      ->envname("SMCTL_INSTANCE");
  app.add_flag("--json", json, "print the daemon's raw JSON response");
  app.add_option("--timeout", timeout_s, "seconds to wait for the answer")->capture_default_str();

  Json request;
  app.add_subcommand("status", "SM state, sweeps, routing engine, fabric counts")->callback([&] {
    request = {{"cmd", "status"}};
  });
  app.add_subcommand("nodes", "every node with LIDs, DR path and ports")->callback([&] {
    request = {{"cmd", "nodes"}};
  });
  std::string sw;
  auto* lfts = app.add_subcommand("lfts", "linear forwarding tables (all switches, or one)");
  lfts->add_option("switch", sw, "switch: name (node-name map), description, GUID or LID");
  lfts->callback([&] {
    request = {{"cmd", "lfts"}};
    if (!sw.empty()) request["switch"] = sw;
  });
  std::string src, dst;
  auto* route = app.add_subcommand("route", "hop-by-hop path through the LFTs");
  route->add_option("src", src, "source: name (node-name map), description, GUID or LID")->required();
  route->add_option("dst", dst, "destination: name (node-name map), description, GUID or LID")->required();
  route->callback([&] { request = {{"cmd", "route"}, {"src", src}, {"dst", dst}}; });
  bool light = false;
  auto* sweep = app.add_subcommand("sweep", "request a heavy sweep (runs even while sweeps are off)");
  sweep->add_flag("--light", light,
                  "a light sweep instead (SwitchInfo of every switch; a change asks for a heavy one)");
  sweep->callback([&] {
    request = {{"cmd", "sweep"}};
    if (light) request["light"] = true;
  });
  auto* sweeps = app.add_subcommand("sweeps", "maintenance: turn light and trap-driven heavy sweeps off or on");
  sweeps->require_subcommand(1);
  std::string off_reason;
  auto* off = sweeps->add_subcommand("off", "no light sweeps; traps are logged and their heavy sweeps held back");
  off->add_option("--reason", off_reason, "why (status shows it)")->required();
  off->callback([&] { request = {{"cmd", "sweeps"}, {"on", false}, {"reason", off_reason}}; });
  sweeps->add_subcommand("on", "sweep again; one heavy sweep if any was held back")->callback([&] {
    request = {{"cmd", "sweeps"}, {"on", true}};
  });
  std::string level;
  auto* log_level =
      app.add_subcommand("log-level", "set the running log level (the next policy reload sets log.level)");
  // The daemon checks the name (smctl links no policy code) and lists the known ones when it is wrong.
  log_level->add_option("level", level, "trace, debug, info, warn, error, critical, off")->required();
  log_level->callback([&] { request = {{"cmd", "log_level"}, {"level", level}}; });
  auto* perfmgr = app.add_subcommand("perfmgr", "steer the Performance Manager (perfmgr.enabled)");
  perfmgr->require_subcommand(1);
  perfmgr->add_subcommand("pass", "run one counter pass now")->callback([&] {
    request = {{"cmd", "perfmgr"}, {"action", "pass"}};
  });
  perfmgr->add_subcommand("clear", "zero the stored counter totals and rates (the ports' counters stay)")
      ->callback([&] {
        request = {{"cmd", "perfmgr"}, {"action", "clear"}};
      });
  app.add_subcommand("reroute", "recompute routes and program the difference")->callback([&] {
    request = {{"cmd", "reroute"}};
  });
  app.add_subcommand("report", "the last heavy sweep's summary")->callback([&] { request = {{"cmd", "report"}}; });
  app.add_subcommand("sa", "Subnet Administrator: queries served by attribute, subscriptions, services")->callback([&] {
    request = {{"cmd", "sa"}};
  });
  std::string pkey;
  auto* partitions = app.add_subcommand("partitions", "partitions: P_Keys, members full/limited, problems");
  partitions->add_option("pkey", pkey, "one partition (P_Key or name): list its member ports");
  partitions->callback([&] {
    request = {{"cmd", "partitions"}};
    if (!pkey.empty()) request["pkey"] = pkey;
  });
  app.add_subcommand("groups", "multicast groups: MGID, MLID, members by JoinState, tree")->callback([&] {
    request = {{"cmd", "groups"}};
  });
  std::string counters_node;
  bool errors_only = false;
  auto* counters = app.add_subcommand("counters", "per-port PMA counters the PerfMgr read (perfmgr.enabled)");
  counters->add_option("node", counters_node, "one node: name (node-name map), description, GUID or LID");
  counters->add_flag("--errors", errors_only, "only ports whose error counters moved in the last interval");
  counters->callback([&] {
    request = {{"cmd", "counters"}, {"errors", errors_only}};
    if (!counters_node.empty()) request["node"] = counters_node;
  });
  bool unhealthy_only = false;
  auto* ports = app.add_subcommand("ports", "cabled ports with their health: unhealthy marks, isolated cables");
  ports->add_flag("--unhealthy", unhealthy_only, "only the ports marked unhealthy, with the reason");
  ports->callback([&] { request = {{"cmd", "ports"}, {"unhealthy", unhealthy_only}}; });
  auto* port = app.add_subcommand("port", "act on one port");
  port->require_subcommand(1);
  std::string clear_node;
  unsigned clear_port = 0;
  auto* clear = port->add_subcommand("clear", "drop a port's unhealthy mark: its cable is routed again");
  clear->add_option("node", clear_node, "node: name (node-name map), description, GUID or LID")->required();
  clear->add_option("port", clear_port, "port number")->required()->check(CLI::Range(1, 254));
  clear->callback([&] { request = {{"cmd", "port_clear"}, {"node", clear_node}, {"port", clear_port}}; });
  std::string what;
  auto* exp = app.add_subcommand("export", "export a plan the daemon wrote");
  exp->add_option("what", what, "what to export")->required()->check(CLI::IsMember({"roce"}));
  exp->callback([&] { request = {{"cmd", "export"}, {"what", what}}; });

  std::string dump_what, dump_file;
  auto* dump = app.add_subcommand("dump", "what smd programmed, in OpenSM's dump file format");
  dump->add_option("what", dump_what, "lfts (opensm-lfts.dump), subnet (opensm-subnet.lst), mcfdbs (opensm.mcfdbs), "
                                      "sl2vl (opensm-sl2vl.dump)")
      ->required()
      ->check(CLI::IsMember({"lfts", "subnet", "mcfdbs", "sl2vl"}));
  dump->add_option("-o,--output", dump_file, "write the text to this file (replaced whole) instead of stdout");
  dump->callback([&] { request = {{"cmd", "dump"}, {"what", dump_what}}; });

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A misspelt command reads as "no command" to CLI11: name the word and the commands instead.
    if (app.get_subcommands().empty() && !app.remaining().empty() && dynamic_cast<const CLI::RequiredError*>(&e)) {
      std::string known;
      for (const CLI::App* sub : app.get_subcommands({})) known += (known.empty() ? "" : ", ") + sub->get_name();
      std::cerr << "smctl: unknown command '" << smd::printable_text(app.remaining().front()) << "' (commands: " << known
                << ")\n";
      return kExitNoConnection;
    }
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitNoConnection;
  }

  // --json prints the answer, -o writes the file: with both, one of them would be dropped without a word.
  if (json && !dump_file.empty()) {
    std::cerr << "smctl: dump: -o writes the file's text and --json prints the answer; give one of them\n";
    return kExitNoConnection;
  }
  if (app.count("--instance") != 0 || !instance.empty()) {
    if (auto st = smd::check_instance_name(instance); !st.ok()) {
      std::cerr << "smctl: --instance: " << st.error().message << "\n";
      return kExitNoConnection;
    }
    socket = smd::instance_socket_path(socket, instance);
  }
  auto response = smd::control::call(socket, request, std::chrono::seconds(timeout_s));
  if (!response.ok()) {
    std::cerr << "smctl: " << smd::printable_text(response.error().message) << "\n";
    return kExitNoConnection;
  }
  const Json& r = *response;
  const bool ok = r.value("ok", false);
  if (json) {
    std::cout << r.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    return ok ? kExitOk : kExitDaemonError;
  }
  if (!ok) {
    // The daemon's message may name nodes by NodeDescription: no control characters on the terminal.
    std::cerr << "smctl: smd: " << smd::printable_text(r.value("error", std::string("unknown error"))) << "\n";
    return kExitDaemonError;
  }
  if (request.value("cmd", "") == "dump") {
    // The file's own text, byte for byte: what OpenSM's parsers expect, not a rendering of it.
    const std::string text = r.contains("result") ? r.at("result").value("text", std::string()) : std::string();
    // OpenSM writes a switch into opensm.mcfdbs only when it forwards some MLID: with no group members
    // the file is empty. Say so on stderr, so an empty answer is not taken for a failure.
    if (text.empty() && dump_what == "mcfdbs") {
      std::cerr << "smctl: dump mcfdbs: no switch forwards any MLID (no multicast group has members yet); the file "
                   "is empty, as OpenSM's is\n";
    }
    if (dump_file.empty()) {
      std::cout << text;
      return kExitOk;
    }
    if (const std::string error = smd::smctl::write_whole_file(dump_file, text); !error.empty()) {
      std::cerr << "smctl: dump: " << smd::printable_text(error) << "\n";
      return kExitNoConnection;
    }
    return kExitOk;
  }
  smd::control::render_text(std::cout, request.value("cmd", ""), r.contains("result") ? r.at("result") : Json());
  return kExitOk;
}
