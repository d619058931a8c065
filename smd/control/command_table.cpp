#include "smd/control/command_table.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "config/policy_loader.h"
#include "smd/control/dump_requests.h"
#include "smd/control/health_requests.h"
#include "smd/control/multicast_requests.h"
#include "smd/control/requests.h"
#include "smd/protocol/control_commands.h"

namespace smd::control {
namespace {

Json from_result(const Result<Json>& r) { return r.ok() ? ok_response(r.value()) : error_response(r.error().message); }

// A node name may come as a string or, for a LID, as a bare JSON number.
std::string name_field(const Json& request, const char* key) {
  const auto it = request.find(key);
  if (it == request.end() || it->is_null()) return "";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// A boolean flag of the request (absent = false); nullopt when it is there but not a boolean, so the
// answer names the field rather than quoting the JSON library.
std::optional<bool> flag(const Json& request, const char* key) {
  if (!request.contains(key)) return false;
  if (!request.at(key).is_boolean()) return std::nullopt;
  return request.at(key).get<bool>();
}

Json do_sweep(const CommandContext& c) {
  const std::optional<bool> light = flag(c.request, "light");
  if (!light) return error_response("sweep: light must be true or false");
  if (*light) {
    c.control.request_light_sweep("smctl sweep --light" + c.by());
    return ok_response({{"requested", "light sweep"}});
  }
  c.control.request_heavy_sweep("smctl sweep" + c.by());
  return ok_response({{"requested", "heavy sweep"}});
}

// The longest --reason kept: status shows it on one line.
constexpr std::size_t kMaxReasonBytes = 200;

Json do_sweeps(const CommandContext& c) {
  const auto on = c.request.find("on");
  if (on == c.request.end() || !on->is_boolean()) return error_response("sweeps: on must be true or false");
  std::string reason = "smctl sweeps on";
  if (!on->get<bool>()) {
    const auto r = c.request.find("reason");
    if (r == c.request.end() || !r->is_string() || r->get<std::string>().empty()) {
      return error_response("sweeps off needs a reason (smctl sweeps off --reason TEXT): status shows it");
    }
    reason = r->get<std::string>();
    if (reason.size() > kMaxReasonBytes) {
      return error_response("sweeps off: reason is " + std::to_string(reason.size()) + " bytes (limit " +
                            std::to_string(kMaxReasonBytes) + ")");
    }
    // The reason is one line an operator reads in status. The log and smctl would show a control character
    // as \xNN, other clients of the JSON get it raw (a dashboard's terminal): refused, with where it is.
    const auto control_char = std::find_if(reason.begin(), reason.end(), [](char ch) {
      const auto u = static_cast<unsigned char>(ch);
      return u < 0x20 || u == 0x7f;
    });
    if (control_char != reason.end()) {
      return error_response("sweeps off: reason has a control character at byte " +
                            std::to_string(control_char - reason.begin() + 1) + ": one line of printable text");
    }
  }
  c.control.request_sweeping(on->get<bool>(), reason, c.requester);
  return ok_response({{"requested", on->get<bool>() ? "sweeps on" : "sweeps off"}});
}

Json do_log_level(const CommandContext& c) {
  const std::string level = c.request.value("level", std::string());
  const auto& names = log_level_names();
  if (std::find(names.begin(), names.end(), level) == names.end()) {
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    return error_response("log_level: unknown level '" + level + "' (known: " + known + ")");
  }
  c.control.set_log_level(level, c.requester);
  return ok_response({{"log_level", level}});
}

Json do_perfmgr(const CommandContext& c) {
  const std::string action = c.request.value("action", std::string());
  PerfMgrRequest what = PerfMgrRequest::kPass;
  if (action == "clear") {
    what = PerfMgrRequest::kClear;
  } else if (action != "pass") {
    return error_response("perfmgr: unknown action '" + action + "' (known: clear, pass)");
  }
  const Status st = c.control.request_perfmgr(what, c.requester);
  if (!st.ok()) return error_response("perfmgr " + action + ": " + st.error().message);
  return ok_response({{"requested", "perfmgr " + action}});
}

Json do_reroute(const CommandContext& c) {
  c.control.request_reroute("smctl reroute" + c.by());
  return ok_response({{"requested", "reroute"}});
}

Json do_counters(const CommandContext& c) {
  const std::optional<bool> errors = flag(c.request, "errors");
  if (!errors) return error_response("counters: errors must be true or false");
  if (c.request.contains("node") && !c.request.at("node").is_string()) {
    return error_response("counters: node must be a name, GUID or LID as a string");
  }
  return from_result(counters_json(*c.snap, c.request.value("node", std::string()), *errors));
}

Json do_ports(const CommandContext& c) {
  const std::optional<bool> unhealthy = flag(c.request, "unhealthy");
  if (!unhealthy) return error_response("ports: unhealthy must be true or false");
  return ok_response(ports_json(*c.snap, *unhealthy));
}

Json do_port_clear(const CommandContext& c) {
  if (!c.request.contains("node") || !c.request.contains("port"))
    return error_response("port_clear needs node and port");
  if (!c.request.at("node").is_string()) {
    return error_response("port_clear: node must be a name, GUID or LID as a string");
  }
  const Json& port = c.request.at("port");
  // Ports are 1..254: a larger number would wrap when read as int64 (2^64-1 became -1 in the answer).
  if (!port.is_number_integer() || (port.is_number_unsigned() && port.get<std::uint64_t>() > 255)) {
    return error_response("port_clear: port must be an integer 1..254");
  }
  return from_result(
      port_clear(c.control, *c.snap, name_field(c.request, "node"), port.get<std::int64_t>(), c.requester));
}

Json do_route(const CommandContext& c) {
  if (!c.request.contains("src") || !c.request.contains("dst")) return error_response("route needs src and dst");
  return from_result(route_json(*c.snap, name_field(c.request, "src"), name_field(c.request, "dst")));
}

// The "parts" field: switch and cable names as routing/whatif/drain_target.h reads them. An error line, or ""
// with `out` filled; an empty list is refused unless `may_be_empty`.
std::string part_list(const Json& request, const char* cmd, bool may_be_empty, std::vector<std::string>& out) {
  const auto it = request.find("parts");
  if (it == request.end() || it->is_null()) {
    if (may_be_empty) return "";
    return std::string(cmd) + " needs parts: switch or cable names";
  }
  if (!it->is_array()) return std::string(cmd) + ": parts must be a list of names";
  for (const Json& p : *it) {
    if (!p.is_string() || p.get<std::string>().empty())
      return std::string(cmd) + ": every part must be a non-empty name";
    out.push_back(p.get<std::string>());
  }
  if (out.empty() && !may_be_empty) return std::string(cmd) + " needs parts: switch or cable names";
  return "";
}

/// drain and undrain: the request's parts (`cmd` names them in errors; none allowed when `may_be_empty`)
/// and one boolean flag (force, all), then the daemon's answer from `call(parts, flag)`.
template <class Call>
Json parts_and_flag(const CommandContext& c, const char* cmd, bool may_be_empty, const char* flag_name, Call call) {
  std::vector<std::string> parts;
  if (std::string e = part_list(c.request, cmd, may_be_empty, parts); !e.empty()) return error_response(e);
  const std::optional<bool> value = flag(c.request, flag_name);
  if (!value) return error_response(std::string(cmd) + ": " + flag_name + " must be true or false");
  return from_result(call(parts, *value));
}

Json do_drain(const CommandContext& c) {
  return parts_and_flag(c, "drain", false, "force", [&c](const std::vector<std::string>& parts, bool force) {
    return c.control.request_drain(parts, force, c.requester);
  });
}

Json do_undrain(const CommandContext& c) {
  return parts_and_flag(c, "undrain", true, "all", [&c](const std::vector<std::string>& parts, bool all) {
    return c.control.request_undrain(parts, all, c.requester);
  });
}

// A what-if's error says which kind it is ("code": the ErrorCode's name), so smctl's exit status tells a
// bad name (2, as `smd plan --drain`) and a what-if already running (6, ask again) from any other error.
Json what_if_answer(const Result<Json>& r) {
  if (r.ok()) return ok_response(r.value());
  Json out = error_response(r.error().message);
  out["code"] = to_string(r.error().code);
  return out;
}

void start_what_if_drain(const CommandContext& c, ControlReply reply) {
  std::vector<std::string> parts;
  if (std::string e = part_list(c.request, "what_if_drain", false, parts); !e.empty()) {
    reply(what_if_answer(make_error(ErrorCode::kInvalidInput, e)));
    return;
  }
  c.control.what_if_drain(parts, [reply = std::move(reply)](Result<Json> r) { reply(what_if_answer(r)); });
}

Json do_export(const CommandContext& c) { return from_result(export_json(c.request, *c.snap)); }
Json do_dump(const CommandContext& c) { return from_result(dump_json(c.request, *c.snap)); }
Json do_status(const CommandContext& c) { return ok_response(status_json(*c.snap)); }
Json do_nodes(const CommandContext& c) { return ok_response(nodes_json(*c.snap)); }
Json do_report(const CommandContext& c) { return ok_response(report_json(c.snap->last_sweep)); }
Json do_sa(const CommandContext& c) { return ok_response(sa_json(c.snap->sa.get())); }
Json do_groups(const CommandContext& c) { return ok_response(groups_json(*c.snap)); }
Json do_partitions(const CommandContext& c) {
  return from_result(partitions_json(*c.snap, c.request.value("pkey", std::string())));
}
Json do_lfts(const CommandContext& c) { return from_result(lfts_json(*c.snap, name_field(c.request, "switch"))); }

// The summary comes from the catalog smctl shares (smd/protocol/control_commands.h): a name missing
// there does not compile.
constexpr ControlCommand row(std::string_view name, bool needs_snapshot, Json (*handle)(const CommandContext&)) {
  return ControlCommand{name, control_command_info(name).summary, needs_snapshot, handle, nullptr};
}
// A row answered later (ControlCommand::start).
constexpr ControlCommand later_row(std::string_view name, void (*start)(const CommandContext&, ControlReply)) {
  return ControlCommand{name, control_command_info(name).summary, false, nullptr, start};
}

// Sorted by name. Requests that only ask the daemon for something (sweep, reroute) need no snapshot.
constexpr std::array kCommands = {
    row("counters", true, do_counters),
    row("drain", false, do_drain),
    row("dump", true, do_dump),
    row("export", true, do_export),
    row("groups", true, do_groups),
    row("lfts", true, do_lfts),
    row("log_level", false, do_log_level),
    row("nodes", true, do_nodes),
    row("partitions", true, do_partitions),
    row("perfmgr", false, do_perfmgr),
    row("port_clear", true, do_port_clear),
    row("ports", true, do_ports),
    row("report", true, do_report),
    row("reroute", false, do_reroute),
    row("route", true, do_route),
    row("sa", true, do_sa),
    row("status", true, do_status),
    row("sweep", false, do_sweep),
    row("sweeps", false, do_sweeps),
    row("undrain", false, do_undrain),
    later_row("what_if_drain", start_what_if_drain),
};

// Every command of the catalog has a handler here, in the same order: smctl offers nothing the daemon
// would answer with "unknown command".
constexpr bool same_commands_as_catalog() {
  if (kCommands.size() != kControlCommandCatalog.size()) return false;
  for (std::size_t i = 0; i < kCommands.size(); ++i) {
    if (kCommands[i].name != kControlCommandCatalog[i].name) return false;
  }
  return true;
}
static_assert(same_commands_as_catalog(), "kCommands and kControlCommandCatalog name different commands");

}  // namespace

std::span<const ControlCommand> control_commands() { return kCommands; }

const ControlCommand* find_control_command(std::string_view name) {
  const auto it =
      std::find_if(kCommands.begin(), kCommands.end(), [&](const ControlCommand& c) { return c.name == name; });
  return it == kCommands.end() ? nullptr : &*it;
}

std::string control_command_names() {
  std::string out;
  for (const ControlCommand& c : kCommands) {
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

void handle_request_async(const Json& request, DaemonControl& control, const std::string& requester,
                          std::function<void(Json)> reply) {
  try {
    const std::string cmd = request.value("cmd", "");
    const ControlCommand* command = find_control_command(cmd);
    if (!command) {
      reply(error_response("unknown command '" + cmd + "' (known: " + control_command_names() + ")"));
      return;
    }
    CommandContext ctx{request, control, requester, nullptr};
    if (command->needs_snapshot) {
      ctx.snap = control.snapshot();
      if (!ctx.snap) {
        reply(error_response("the daemon has published no state yet"));
        return;
      }
    }
    if (command->start) {
      command->start(ctx, std::move(reply));
      return;
    }
    reply(command->handle(ctx));
  } catch (const std::exception& e) {
    // A field of the wrong type (value() throws type_error): the client's fault, said in-band. A start
    // that threw has not handed its reply on.
    if (reply) reply(error_response(std::string("bad request: ") + e.what()));
  }
}

Json handle_request(const Json& request, DaemonControl& control, const std::string& requester) {
  // A command answered later would call back into this frame after it returned: refused here, it is
  // served by handle_request_async.
  const auto cmd = request.find("cmd");
  if (cmd != request.end() && cmd->is_string()) {
    const ControlCommand* command = find_control_command(cmd->get<std::string>());
    if (command && command->start) return error_response("'" + cmd->get<std::string>() + "' is answered later");
  }
  std::optional<Json> answer;
  handle_request_async(request, control, requester, [&answer](Json r) { answer = std::move(r); });
  return answer ? std::move(*answer) : error_response("no answer");
}

}  // namespace smd::control
