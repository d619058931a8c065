// `smd import-qos-policy FILE [--partitions PARTITIONS] [-o OUT]`: OpenSM's qos-policy.conf converted into
// the policy's `qos:` section (config/qos_policy_conf.h, config/qos_yaml.h), to paste into smd.yaml.
#pragma once

#include <ostream>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace smd {

/// Register the import-qos-policy subcommand on `app`; a failure ends parsing with CLI::RuntimeError(code).
void add_import_qos_policy_command(CLI::App& app);

/// The body, separated from CLI11 for testing: convert `input`, with port groups' partitions resolved
/// against `partitions_conf` (an OpenSM partitions.conf, whose converted `partitions:` section is written
/// too) or, when it is "", against smd's default partition. The result is loaded by the policy loader
/// before it is written; YAML goes to `output_path` (replaced atomically) or, when "", to `out`. Warnings
/// and errors go to `err`, each "FILE:line:column: ...". Returns 0 converted, 2 an input cannot be read or
/// converted (nothing written), 4 the output cannot be written.
int run_import_qos_policy(const std::string& input, const std::string& partitions_conf, const std::string& output_path,
                          std::ostream& out, std::ostream& err);

}  // namespace smd
