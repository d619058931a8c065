#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "config/partitions_conf.h"
#include "config/partitions_yaml.h"
#include "smd/cli/import_commands.h"
#include "smd/cli/import_shell.h"

namespace smd {

namespace {

using import_shell::kBadInputExit;

}  // namespace

int run_import_partitions(const std::string& input, const std::string& output_path, std::ostream& out,
                          std::ostream& err) {
  if (import_shell::output_is_an_input("import-partitions", output_path, {{"FILE", input}}, err)) return kBadInputExit;
  const auto imported = import_shell::read_and_convert<PartitionsImport>(
      input, "partitions file", [&](const std::string& text) { return parse_partitions_conf(text, input); }, err);
  if (!imported) return kBadInputExit;
  import_shell::report_lines(err, "warning", imported->warnings);
  const std::string yaml = "# Converted from " + input +
                           " by smd import-partitions; the policy adds the default partition 0x7fff\n"
                           "# (ALL=limited, SELF=full) when this list has none.\n" +
                           partitions_yaml(imported->spec);
  // Member lists grow several times when written as YAML: a section the policy loader would refuse as too
  // large is not written at all.
  if (yaml.size() > kMaxPolicyBytes) {
    err << input << ": the converted partitions: section would be " << yaml.size() << " bytes, more than the "
        << kMaxPolicyBytes
        << " a policy file may hold; select members with ALL_CAS or node descriptions instead of port GUIDs, or "
           "split the partitions\n";
    return kBadInputExit;
  }
  return import_shell::write_converted(yaml, output_path, out, err);
}

void add_import_partitions_command(CLI::App& app) {
  import_shell::add_import_command(
      app, "import-partitions", "Convert OpenSM's partitions.conf into the policy's partitions: section (YAML)",
      "OpenSM partitions file, e.g. /etc/opensm/partitions.conf", /*file_optional=*/false,
      [](const import_shell::ImportArgs& a) { return run_import_partitions(a.input, a.output, std::cout, std::cerr); });
}

}  // namespace smd
