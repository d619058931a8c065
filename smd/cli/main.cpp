// smd: InfiniBand subnet manager. `smd --once` brings a fabric up and exits; `smd plan` routes a netfile
// offline; `smd check-config` validates a policy file; `smd import-partitions` converts OpenSM's
// partitions.conf, `smd import-qos-policy` its qos-policy.conf, `smd import-opensm-conf` its opensm.conf; `smd config --effective` prints every policy key
// with its value and origin. `smd --instance NAME` is one of several SMs on this host (smd@.service, one per
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
#include "smd/cli/import_opensm_command.h"
#include "smd/cli/effective_config_command.h"
#include "smd/cli/import_partitions_command.h"
#include "smd/cli/import_qos_policy_command.h"
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

}  // namespace

int main(int argc, char** argv) {
  // Subcommands log through the default logger before (or without) setup_logging: the same formatter.
  spdlog::set_formatter(smd::make_log_formatter());
  CLI::App app{"smd: InfiniBand subnet manager (heavy sweep, LIDs, routing, LFTs, link bring-up)"};
  app.set_version_flag("--version", std::string("smd ") + SMD_VERSION);
  std::string config_path;
  bool once = false;
  std::string log_level;
  smd::InstancePolicy instance;
  app.add_option("-c,-F,--config", config_path, "YAML policy file (see config/smd.yaml); -F as OpenSM spells it");
  app.add_flag(
      "--once", once,
      "one full bring-up of the fabric, print the summary, exit 0 when the subnet is up (default: run as a daemon)");
  app.add_option("--log-level", log_level, "override log.level (trace, debug, info, warn, error, critical, off)")
      ->check(CLI::IsMember(smd::log_level_names()));
  app.add_option("--instance", instance.name,
                 "run as instance NAME of several SMs on this host: a port GUID (0x...) selects the SM port; "
                 "smd-NAME.yaml beside --config replaces it when present; NAME is added as a folder to "
                 "sm.state_dir and control.socket");
  app.add_option("--metrics-listen", instance.metrics_listen, "override metrics.listen (HOST:PORT)");
  // OpenSM's overrides, with its letters; they win over the policy file and --instance, also on SIGHUP.
  std::string priority_text, guid_text, engines_text;
  app.add_option("-p,--priority", priority_text, "override sm.priority (0..15), as opensm -p");
  app.add_option("-g,--guid", guid_text, "override sm.port_guid: the SM port by port GUID (0x...), as opensm -g");
  app.add_option("-R,--routing-engine,--routing_engine", engines_text,
                 "override routing.engines: the engine chain, comma separated (ftree,updn,minhop), as opensm -R");
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

  smd::PolicyOverrides overrides;
  if (app.count("--priority") != 0) {
    auto parsed = smd::parse_priority_override(priority_text);
    if (!parsed.ok()) return usage_error(parsed.error().message);
    overrides.priority = *parsed;
  }
  if (app.count("--guid") != 0) {
    auto parsed = smd::parse_guid_override(guid_text);
    if (!parsed.ok()) return usage_error(parsed.error().message);
    overrides.port_guid = *parsed;
  }
  if (app.count("--routing-engine") != 0) {
    auto parsed = smd::parse_engine_list_override(engines_text);
    if (!parsed.ok()) return usage_error(parsed.error().message);
    overrides.engines = std::move(parsed.value());
  }
  if (!log_level.empty()) overrides.log_level = log_level;
  // config --effective shows a file the daemon would refuse for its mode too: it reads, it does not run.
  const bool effective_only = config_command->parsed();
  auto steps = smd::build_startup_policy(config_path, instance, app.count("--instance") != 0, overrides,
                                         /*check_permissions=*/!effective_only, std::cerr);
  if (!steps) return 2;
  if (effective_only) return smd::run_effective_config(*steps, config_json, std::cout);
  config_path = steps->config_path;
  smd::Policy policy = std::move(steps->effective);
  if (auto st = smd::setup_logging(policy.log); !st.ok()) {
    std::cerr << "smd: " << smd::printable_text(st.error().message) << "\n";
    return 2;
  }
  for (const std::string& w : policy.warnings) spdlog::warn("policy: {}", w);
  if (const std::string line = smd::describe_instance(policy); !line.empty()) spdlog::info("{}", line);
  if (auto st = smd::prepare_state_dir(policy.sm.state_dir); !st.ok()) {
    std::cerr << "smd: " << smd::printable_text(st.error().message) << "\n";
    return 2;
  }
  if (once) return smd::run_once(policy, std::cout);
  smd::Daemon daemon(std::move(policy), config_path);
  daemon.set_log_reopen(smd::reopen_log_file);
  return daemon.run();
}
