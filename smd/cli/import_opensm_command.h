// `smd import-opensm-conf FILE [-o OUT] [--partitions FILE]`: an opensm.conf (and the partitions.conf it
// names) converted into a whole smd policy (config/opensm_import.h), with what could not be carried over
// listed; `--options-table` prints every OpenSM option with what smd makes of it (docs/opensm-options.md).
#pragma once

#include <ostream>
#include <string>

namespace CLI {
class App;
}  // namespace CLI

namespace smd {

/// Register the import-opensm-conf subcommand on `app`; a failure ends parsing with CLI::RuntimeError(code).
void add_import_opensm_command(CLI::App& app);

/// The body, separated from CLI11 for testing: convert `input` (with `partitions` and `qos_policy` instead
/// of the partitions and QoS policy files it names, when not ""); write the policy to `output_path`
/// (replaced atomically) or, when it is "", to `out`. The report (carried, not carried, warnings) goes to
/// `err`. Returns the exit code: 0 converted, 2 the input cannot be read or converted (nothing written), 4
/// the output cannot be written.
int run_import_opensm(const std::string& input, const std::string& partitions, const std::string& qos_policy,
                      const std::string& output_path, std::ostream& out, std::ostream& err);

/// The option table as Markdown, one row per OpenSM option in `opensm -c` order: option, OpenSM default,
/// fate, policy key, note. docs/opensm-options.md is this text.
void print_opensm_options_table(std::ostream& out);

}  // namespace smd
