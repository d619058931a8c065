#include "smd/cli/check_config_command.h"

#include <CLI/CLI.hpp>
#include <memory>

#include "config/policy_loader.h"
#include "config/policy_summary.h"
#include "routing/base/safe_text.h"

namespace smd {

namespace {

/// Exit code for a policy that does not load: distinct from 1 (CLI11's usage errors) so scripts can tell
/// "bad file" from "bad command line".
constexpr int kInvalidPolicyExit = 2;

struct CheckConfigArgs {
  std::string path;
  bool skip_permissions = false;
};

}  // namespace

int run_check_config(const std::string& path, bool check_permissions, std::ostream& out, std::ostream& err) {
  Result<Policy> policy = load_policy_file(path);
  if (!policy.ok()) {
    err << printable_lines(policy.error().message) << "\n";
    return kInvalidPolicyExit;
  }
  if (check_permissions) {
    // The daemon refuses such a file at start; saying OK here would only move the failure to the restart.
    Status permissions = check_policy_file_permissions(path);
    if (!permissions.ok()) {
      err << printable_text(permissions.error().message) << "\n";
      return kInvalidPolicyExit;
    }
  }
  for (const std::string& w : policy->warnings) err << printable_text(w) << "\n";
  out << printable_text(path) << ": OK\n" << printable_text(summarize_policy(*policy)) << "\n";
  return 0;
}

void add_check_config_command(CLI::App& app) {
  // CLI11 binds options to storage that must outlive parsing; the callback owns it with the subcommand.
  auto args = std::make_shared<CheckConfigArgs>();
  CLI::App* command = app.add_subcommand("check-config", "Validate a policy file and print the effective policy");
  command->add_option("FILE", args->path, "Policy file (YAML), e.g. /etc/smd/smd.yaml")->required();
  command->add_flag("--skip-permissions", args->skip_permissions,
                    "Do not refuse a file writable by group or others (for checking drafts)");
  command->callback([args] {
    int code = run_check_config(args->path, !args->skip_permissions, std::cout, std::cerr);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace smd
