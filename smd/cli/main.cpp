// smd: InfiniBand subnet manager. `smd --once` brings a fabric up and exits; `smd plan` routes a netfile
// offline; `smd check-config` validates a policy file; `smd import-partitions` converts OpenSM's
// partitions.conf, `smd import-opensm-conf` its opensm.conf. `smd --instance NAME` is one of several SMs on this host (smd@.service, one per port).
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "config/listen_address.h"
#include "config/policy_loader.h"
#include "routing/base/safe_text.h"
#include "smd/cli/check_config_command.h"
#include "smd/cli/import_opensm_command.h"
#include "smd/cli/import_partitions_command.h"
#include "smd/cli/logging.h"
#include "smd/cli/once_command.h"
#include "smd/cli/plan_command.h"
#include "smd/protocol/instance_name.h"
#include "smd/sm/daemon.h"
#include "smd/sm/instance_policy.h"
#include "smd/state/state_dir.h"

int main(int argc, char** argv) {
  // Subcommands log through the default logger before (or without) setup_logging: the same formatter.
  spdlog::set_formatter(smd::make_log_formatter());
  CLI::App app{"smd: InfiniBand subnet manager (heavy sweep, LIDs, routing, LFTs, link bring-up)"};
  app.set_version_flag("--version", std::string("smd ") + SMD_VERSION);
  std::string config_path;
  bool once = false;
  std::string log_level;
  smd::InstancePolicy instance;
  app.add_option("-c,--config", config_path, "YAML policy file (see config/smd.yaml)");
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
  smd::add_plan_command(app);
  smd::add_check_config_command(app);
  smd::add_import_partitions_command(app);
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
  if (!app.get_subcommands().empty()) return 0;  // the subcommand ran in its callback

  // Bad names stop here, before any file or folder is made from them.
  if (app.count("--instance") != 0) {
    if (auto st = smd::check_instance_name(instance.name); !st.ok()) {
      std::cerr << "smd: --instance: " << st.error().message << "\n";
      return 2;
    }
    const std::string shared = config_path;
    config_path = smd::instance_policy_path(config_path, instance.name);
    instance.own_policy_file = config_path != shared;
  }
  if (!instance.metrics_listen.empty()) {
    if (auto parsed = smd::parse_listen_address(instance.metrics_listen); !parsed.ok()) {
      std::cerr << "smd: --metrics-listen '" << smd::printable_text(instance.metrics_listen)
                << "': " << parsed.error().message << "\n";
      return 2;
    }
  }

  smd::Policy policy;
  if (!config_path.empty()) {
    if (auto st = smd::check_policy_file_permissions(config_path); !st.ok()) {
      std::cerr << "smd: " << smd::printable_text(st.error().message) << "\n";
      return 2;
    }
    auto loaded = smd::load_policy_file(config_path);
    if (!loaded.ok()) {
      std::cerr << "smd: " << smd::printable_lines(loaded.error().message) << "\n";
      return 2;
    }
    policy = std::move(loaded.value());
  }
  smd::apply_instance(policy, instance);
  if (!log_level.empty()) policy.log.level = log_level;
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
