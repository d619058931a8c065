// `smd config --effective [--json]`: every policy key with its effective value and where it came from
// (config/effective_policy.h), for the policy smd would start with given the same -c/-F, --instance and
// overrides (-p, -g, -R). OpenSM's `opensm -c FILE` (write the effective options) is the analogue.
#pragma once

#include <ostream>

#include "smd/cli/startup_policy.h"

namespace CLI {
class App;
}  // namespace CLI

namespace smd {

/// Registers `config` on `app` with its flags --effective (required) and --json; the global options may
/// also follow it (`smd config --effective -p 5`). It has no callback: main() runs run_effective_config
/// when the returned subcommand was parsed, once the global options are known.
CLI::App* add_effective_config_command(CLI::App& app, bool& json);

/// Prints the effective policy of `steps` as YAML (a policy file another smd loads to the same policy)
/// or, with `json`, as {"source": FILE or null, "keys": [{"key", "value", "origin"}, ...]}. Returns 0.
int run_effective_config(const StartupPolicy& steps, bool json, std::ostream& out);

}  // namespace smd
