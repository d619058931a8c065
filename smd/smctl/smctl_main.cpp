// smctl: ask a running smd over its control socket.
//   smctl [--socket PATH] [--instance NAME] [--json] [--timeout S] COMMAND ...
// `smctl --list-commands` prints every COMMAND with its arguments (smd/protocol/control_commands.h).
// The global options may also follow the command (`smctl status --json`); SMCTL_SOCKET names the socket
// when --socket is not given, SMCTL_INSTANCE the instance when --instance is not. An instance's socket is
// the socket path with the folder NAME put before the file name, the rule `smd --instance NAME` follows.
// Exit codes (answer_exit.h): 0 ok, 1 the daemon answered with an error, 2 usage error, no connection, or
// `dump -o FILE` unwritable, 5 `what-if drain` would leave CA pairs without any path.

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>

#include "config/policy.h"
#include "routing/base/safe_text.h"
#include "smd/protocol/instance_name.h"
#include "smd/smctl/answer_exit.h"
#include "smd/smctl/dump_output.h"
#include "smd/smctl/smctl_client.h"
#include "smd/smctl/smctl_commands.h"
#include "smd/smctl/smctl_render.h"

namespace {

using smd::control::Json;
using smd::smctl::SmctlInvocation;

using smd::smctl::kExitDaemonError;
using smd::smctl::kExitNoConnection;
using smd::smctl::kExitOk;

// Parse the command line; an exit code when smctl is done already (help, version, a usage error).
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    // A misspelt command reads as "no command" to CLI11: name the word and the commands instead.
    if (app.get_subcommands().empty() && !app.remaining().empty() && dynamic_cast<const CLI::RequiredError*>(&e)) {
      std::string known;
      for (const CLI::App* sub : app.get_subcommands({})) known += (known.empty() ? "" : ", ") + sub->get_name();
      std::cerr << "smctl: unknown command '" << smd::printable_text(app.remaining().front())
                << "' (commands: " << known << ")\n";
      return kExitNoConnection;
    }
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitNoConnection;
  }
}

// Combinations CLI11 cannot refuse, and the instance's socket path; an error line, or "" when fine.
std::string check_and_resolve(const CLI::App& app, SmctlInvocation& inv) {
  // --json prints the answer, -o writes the file: with both, one of them would be dropped without a word.
  if (inv.json && !inv.dump_file.empty())
    return "dump: -o writes the file's text and --json prints the answer; give one of them";
  if (app.count("--instance") != 0 || !inv.instance.empty()) {
    if (auto st = smd::check_instance_name(inv.instance); !st.ok()) return "--instance: " + st.error().message;
    inv.socket = smd::instance_socket_path(inv.socket, inv.instance);
  }
  return "";
}

// `dump`: the file's own text, byte for byte (what OpenSM's parsers expect), to stdout or -o FILE.
int write_dump(const SmctlInvocation& inv, const Json& r) {
  const std::string text = r.contains("result") ? r.at("result").value("text", std::string()) : std::string();
  // OpenSM writes a switch into opensm.mcfdbs only when it forwards some MLID: with no group members
  // the file is empty. Say so on stderr, so an empty answer is not taken for a failure.
  if (text.empty() && inv.args.dump_what == "mcfdbs") {
    std::cerr << "smctl: dump mcfdbs: no switch forwards any MLID (no multicast group has members yet); the file "
                 "is empty, as OpenSM's is\n";
  }
  if (inv.dump_file.empty()) {
    std::cout << text;
    return kExitOk;
  }
  if (const std::string error = smd::smctl::write_whole_file(inv.dump_file, text); !error.empty()) {
    std::cerr << "smctl: dump: " << smd::printable_text(error) << "\n";
    return kExitNoConnection;
  }
  return kExitOk;
}

// Print the daemon's answer as --json, a dump's file text, or the command's text view; the exit code.
int print_answer(const SmctlInvocation& inv, const Json& r) {
  const bool ok = r.value("ok", false);
  const std::string cmd = inv.request.value("cmd", "");
  if (inv.json) {
    std::cout << r.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
    return smd::smctl::answer_exit_code(cmd, r);
  }
  if (!ok) {
    // The daemon's message may name nodes by NodeDescription: no control characters on the terminal.
    std::cerr << "smctl: smd: " << smd::printable_text(r.value("error", std::string("unknown error"))) << "\n";
    return smd::smctl::answer_exit_code(cmd, r);  // 1, or a what-if's own (bad name 2, busy 6)
  }
  if (cmd == "dump") return write_dump(inv, r);
  smd::control::render_text(std::cout, cmd, r.contains("result") ? r.at("result") : Json());
  return smd::smctl::answer_exit_code(cmd, r);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"smctl: query and steer the smd InfiniBand subnet manager"};
  app.set_version_flag("--version", std::string("smctl ") + SMD_VERSION);
  app.require_subcommand(1);
  SmctlInvocation inv;
  smd::smctl::add_smctl_commands(app, inv, smd::ControlPolicy{}.socket);
  if (const auto done = parse(app, argc, argv)) return *done;
  if (const std::string error = check_and_resolve(app, inv); !error.empty()) {
    std::cerr << "smctl: " << error << "\n";
    return kExitNoConnection;
  }
  auto response = smd::control::call(inv.socket, inv.request, std::chrono::seconds(inv.timeout_s));
  if (!response.ok()) {
    std::cerr << "smctl: " << smd::printable_text(response.error().message) << "\n";
    return kExitNoConnection;
  }
  return print_answer(inv, *response);
}
