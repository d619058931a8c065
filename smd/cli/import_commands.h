// The import commands: OpenSM's files converted into smd policy YAML, to paste into smd.yaml or use whole.
//   smd import-opensm-conf FILE [-o OUT] [--partitions FILE] [--qos-policy FILE] [--options-table]
//       an opensm.conf (and the partitions.conf and qos-policy.conf it names) as a whole policy
//       (config/opensm_import.h), with what could not be carried over listed
//   smd import-partitions FILE [-o OUT]      partitions.conf -> the `partitions:` section (config/partitions_conf.h)
//   smd import-qos-policy FILE [--partitions FILE] [-o OUT]   qos-policy.conf -> the `qos:` section
// All three share one contract (import_shell.h): the YAML goes to OUT, replaced atomically (written beside
// it, then renamed; a device, FIFO or symlink there is refused), or to stdout; warnings, the report and
// errors go to stderr, each error naming FILE:line:column. Exit codes: 0 converted, 2 an input cannot be
// read or converted (nothing written), 4 the output cannot be written.
#pragma once

#include <ostream>
#include <string>

// Only CLI::App& is named here: the full CLI11 header (one of the costliest to compile) stays in the .cpp
// files that build or parse an App, so the tests of the command bodies do not pay for it.
namespace CLI {
class App;
}  // namespace CLI

namespace smd {

/// Register import-opensm-conf on `app`; a failure ends parsing with CLI::RuntimeError(code).
void add_import_opensm_command(CLI::App& app);
/// Register import-partitions on `app`; a failure ends parsing with CLI::RuntimeError(code).
void add_import_partitions_command(CLI::App& app);
/// Register import-qos-policy on `app`; a failure ends parsing with CLI::RuntimeError(code).
void add_import_qos_policy_command(CLI::App& app);

/// import-opensm-conf's body, separated from CLI11 for testing: convert `input`, reading `partitions` and
/// `qos_policy` instead of the files it names when not "". The report (carried, not carried, warnings)
/// goes to `err`. Returns the exit code above.
int run_import_opensm(const std::string& input, const std::string& partitions, const std::string& qos_policy,
                      const std::string& output_path, std::ostream& out, std::ostream& err);

/// import-partitions' body: convert `input`. Returns the exit code above (2 also when the YAML would be
/// larger than a policy file may be).
int run_import_partitions(const std::string& input, const std::string& output_path, std::ostream& out,
                          std::ostream& err);

/// import-qos-policy's body: convert `input`, with port groups' partitions resolved against
/// `partitions_conf` (whose converted `partitions:` section is written too) or, when "", against smd's
/// default partition. The result is loaded by the policy loader before it is written. Returns the exit
/// code above.
int run_import_qos_policy(const std::string& input, const std::string& partitions_conf, const std::string& output_path,
                          std::ostream& out, std::ostream& err);

/// The option table as Markdown, one row per OpenSM option in `opensm -c` order: option, OpenSM default,
/// fate, policy key, note. docs/opensm-options.md is this text.
void print_opensm_options_table(std::ostream& out);

}  // namespace smd
