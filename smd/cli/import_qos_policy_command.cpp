#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "config/partitions_conf.h"
#include "config/partitions_yaml.h"
#include "config/policy_loader.h"
#include "config/qos_policy_conf.h"
#include "config/qos_yaml.h"
#include "smd/cli/import_commands.h"
#include "smd/cli/import_shell.h"

namespace smd {

namespace {

using import_shell::kBadInputExit;

}  // namespace

int run_import_qos_policy(const std::string& input, const std::string& partitions_conf, const std::string& output_path,
                          std::ostream& out, std::ostream& err) {
  if (import_shell::output_is_an_input("import-qos-policy", output_path, {{"FILE", input}, {"--partitions", partitions_conf}},
                                       err)) {
    return kBadInputExit;
  }
  PartitionsSpec partitions = default_partitions();
  std::string partitions_section;
  if (!partitions_conf.empty()) {
    auto imported = import_shell::read_and_convert<PartitionsImport>(
        partitions_conf, "partitions file",
        [&](const std::string& text) { return parse_partitions_conf(text, partitions_conf); }, err);
    if (!imported) return kBadInputExit;
    import_shell::report_lines(err, "warning", imported->warnings);
    partitions = std::move(imported->spec);
    partitions_section = "\n# Converted from " + partitions_conf + " (the QoS port groups name its partitions).\n" +
                         partitions_yaml(partitions);
  }
  const auto imported = import_shell::read_and_convert<QosPolicyImport>(
      input, "QoS policy file", [&](const std::string& text) { return parse_qos_policy_conf(text, input, partitions); },
      err);
  if (!imported) return kBadInputExit;
  import_shell::report_lines(err, "warning", imported->warnings);
  std::string yaml = "# Converted from " + input +
                     " by smd import-qos-policy. OpenSM uses a QoS policy file only with -Q (qos TRUE),\n"
                     "# hence enabled: true; SL2VL and VL arbitration keep smd's defaults (OpenSM's qos_* "
                     "options).\nqos:\n  enabled: true\n";
  for (const QosYamlKey& key : qos_list_keys(imported->spec)) {
    yaml += "  " + key.key + ":\n";
    for (const std::string& item : key.items) yaml += "    - " + item + "\n";
  }
  yaml += partitions_section;
  // What is written must load: a conversion the loader refuses is this converter's fault, reported as such
  // and never written.
  if (auto loaded = load_policy_string(yaml, input + " (converted)"); !loaded.ok()) {
    err << input << ": the converted qos: section does not load: " << printable_lines(loaded.error().message) << "\n";
    return kBadInputExit;
  }
  err << input << ": " << imported->spec.port_groups.size() << " port groups, " << imported->spec.levels.size()
      << " QoS levels, " << imported->spec.rules.size() << " match rules, " << imported->warnings.size()
      << " warnings\n";
  return import_shell::write_converted(yaml, output_path, out, err);
}

void add_import_qos_policy_command(CLI::App& app) {
  auto [command, args] = import_shell::add_import_command(
      app, "import-qos-policy", "Convert OpenSM's qos-policy.conf into the policy's qos: section (YAML)",
      "OpenSM QoS policy file, e.g. /etc/opensm/qos-policy.conf", /*file_optional=*/false,
      [](const import_shell::ImportArgs& a) {
        return run_import_qos_policy(a.input, a.partitions, a.output, std::cout, std::cerr);
      });
  command->add_option("--partitions", args->partitions,
                      "the partitions.conf whose partitions the port groups name (converted and written too)");
}

}  // namespace smd
