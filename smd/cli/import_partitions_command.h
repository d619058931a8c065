// `smd import-partitions FILE [-o OUT]`: OpenSM's partitions.conf converted into the policy's `partitions:`
// section (config/partitions_conf.h, config/partitions_yaml.h), to paste into smd.yaml.
#pragma once

#include <ostream>
#include <string>

// Only CLI::App& is named here: the full CLI11 header (one of the costliest to compile) stays in the .cpp
// files that build or parse an App, so the tests of the command bodies do not pay for it.
namespace CLI {
class App;
}  // namespace CLI

namespace smd {

/// Register the import-partitions subcommand on `app`; a failure ends parsing with CLI::RuntimeError(code).
void add_import_partitions_command(CLI::App& app);

/// The body, separated from CLI11 for testing: convert `input`; write the YAML to `output_path` (replaced
/// atomically: written beside it, then renamed) or, when it is "", to `out`. Warnings and errors go to `err`,
/// each "FILE:line:column: ...". Returns the exit code: 0 converted, 2 the file cannot be read or converted
/// (nothing written), 4 the output cannot be written.
int run_import_partitions(const std::string& input, const std::string& output_path, std::ostream& out,
                          std::ostream& err);

}  // namespace smd
