// smd: InfiniBand subnet manager. `smd --once` brings a fabric up and exits; `smd plan` routes a netfile
// offline; `smd check-config` validates a policy file; `smd import-partitions`, `import-qos-policy` and
// `import-opensm-conf` convert OpenSM's files (import_commands.h); `smd config --effective` prints every
// policy key with its value and origin. `smd --instance NAME` is one of several SMs on this host (smd@.service, one per
// port); -p, -g, -R override the policy.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "config/listen_address.h"
#include "config/policy_loader.h"
#include "config/policy_overrides.h"
#include "routing/base/safe_text.h"
#include "smd/cli/check_config_command.h"
#include "smd/cli/effective_config_command.h"
#include "smd/cli/import_commands.h"
#include "smd/cli/logging.h"
#include "smd/cli/once_command.h"
#include "smd/cli/plan_command.h"
#include "smd/cli/startup_policy.h"
#include "smd/protocol/instance_name.h"
#include "smd/sm/daemon.h"
#include "smd/sm/instance_policy.h"
#include "smd/state/state_dir.h"

namespace {

/// A bad option value: the message on stderr, exit 2 as every usage error.
int usage_error(const std::string& message) {
  std::cerr << "smd: " << smd::printable_text(message) << "\n";
  return 2;
}

/// The daemon's own options (those of no subcommand), as given.
struct SmdOptions {
  std::string config_path;
  bool once = false;
  std::string log_level;
  smd::InstancePolicy instance;
  std::string priority_text, guid_text, engines_text;  // OpenSM's -p, -g, -R, checked after parsing
};

void add_daemon_options(CLI::App& app, SmdOptions& o) {
  app.add_option("-c,-F,--config", o.config_path, "YAML policy file (see config/smd.yaml); -F as OpenSM spells it");
  app.add_flag(
      "--once", o.once,
      "one full bring-up of the fabric, print the summary, exit 0 when the subnet is up (default: run as a daemon)");
  app.add_option("--log-level", o.log_level, "override log.level (trace, debug, info, warn, error, critical, off)")
      ->check(CLI::IsMember(smd::log_level_names()));
  app.add_option("--instance", o.instance.name,
                 "run as instance NAME of several SMs on this host: a port GUID (0x...) selects the SM port; "
                 "smd-NAME.yaml beside --config replaces it when present; NAME is added as a folder to "
                 "sm.state_dir and control.socket");
  app.add_option("--metrics-listen", o.instance.metrics_listen, "override metrics.listen (HOST:PORT)");
  // OpenSM's overrides, with its letters; they win over the policy file and --instance, also on SIGHUP.
  app.add_option("-p,--priority", o.priority_text, "override sm.priority (0..15), as opensm -p");
  app.add_option("-g,--guid", o.guid_text, "override sm.port_guid: the SM port by port GUID (0x...), as opensm -g");
  app.add_option("-R,--routing-engine,--routing_engine", o.engines_text,
                 "override routing.engines: the engine chain, comma separated (ftree,updn,minhop), as opensm -R");
}

/// The command line's overrides of the policy, each checked as the policy loader would check the key.
/// Errors: kInvalidInput naming the option's value.
smd::Result<smd::PolicyOverrides> overrides_from(const CLI::App& app, const SmdOptions& o) {
  smd::PolicyOverrides overrides;
  if (app.count("--priority") != 0) {
    auto parsed = smd::parse_priority_override(o.priority_text);
    if (!parsed.ok()) return parsed.error();
    overrides.priority = *parsed;
  }
  if (app.count("--guid") != 0) {
    auto parsed = smd::parse_guid_override(o.guid_text);
    if (!parsed.ok()) return parsed.error();
    overrides.port_guid = *parsed;
  }
  if (app.count("--routing-engine") != 0) {
    auto parsed = smd::parse_engine_list_override(o.engines_text);
    if (!parsed.ok()) return parsed.error();
    overrides.engines = std::move(parsed.value());
  }
  if (!o.log_level.empty()) overrides.log_level = o.log_level;
  return overrides;
}

/// Run the SM on the policy in effect: once (`--once`) or as the daemon. Logging and the state folder
/// are set up first, so a daemon that cannot write them exits 2 before it touches the fabric.
int run_sm(smd::Policy policy, const std::string& config_path, bool once) {
  if (auto st = smd::setup_logging(policy.log); !st.ok()) return usage_error(st.error().message);
  for (const std::string& w : policy.warnings) spdlog::warn("policy: {}", w);
  if (const std::string line = smd::describe_instance(policy); !line.empty()) spdlog::info("{}", line);
  if (auto st = smd::prepare_state_dir(policy.sm.state_dir); !st.ok()) return usage_error(st.error().message);
  if (once) return smd::run_once(policy, std::cout);
  smd::Daemon daemon(std::move(policy), config_path);
  daemon.set_log_reopen(smd::reopen_log_file);
  return daemon.run();
}

}  // namespace

int main(int argc, char** argv) {
  // Subcommands log through the default logger before (or without) setup_logging: the same formatter.
  spdlog::set_formatter(smd::make_log_formatter());
  CLI::App app{"smd: InfiniBand subnet manager (heavy sweep, LIDs, routing, LFTs, link bring-up)"};
  app.set_version_flag("--version", std::string("smd ") + SMD_VERSION);
  SmdOptions options;
  add_daemon_options(app, options);
  bool config_json = false;
  CLI::App* config_command = smd::add_effective_config_command(app, config_json);
  smd::add_plan_command(app);
  smd::add_check_config_command(app);
  smd::add_import_partitions_command(app);
  smd::add_import_qos_policy_command(app);
  smd::add_import_opensm_command(app);
  app.require_subcommand(0, 1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a subcommand's own exit code (smd plan: 4 for a write failure, ...)
  } catch (const CLI::ParseError& e) {
    // --help prints and exits 0; every usage error exits 2, like a bad policy, not CLI11's 100-odd codes.
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (!app.get_subcommands().empty() && !config_command->parsed()) return 0;  // the subcommand ran in its callback

  auto overrides = overrides_from(app, options);
  if (!overrides.ok()) return usage_error(overrides.error().message);
  // config --effective shows a file the daemon would refuse for its mode too: it reads, it does not run.
  const bool effective_only = config_command->parsed();
  auto steps = smd::build_startup_policy(options.config_path, options.instance, app.count("--instance") != 0,
                                         *overrides, /*check_permissions=*/!effective_only, std::cerr);
  if (!steps) return 2;
  if (effective_only) return smd::run_effective_config(*steps, config_json, std::cout);
  return run_sm(std::move(steps->effective), steps->config_path, options.once);
}
