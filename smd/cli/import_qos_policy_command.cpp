#include "smd/cli/import_qos_policy_command.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "config/partitions_conf.h"
#include "config/partitions_yaml.h"
#include "config/policy_loader.h"
#include "config/qos_policy_conf.h"
#include "config/qos_yaml.h"
#include "config/text_file.h"
#include "routing/base/safe_text.h"
#include "smd/state/atomic_file.h"

namespace smd {

namespace {

constexpr int kBadInputExit = 2;
constexpr int kWriteFailExit = 4;

struct ImportArgs {
  std::string input;
  std::string partitions;
  std::string output;
};

}  // namespace

int run_import_qos_policy(const std::string& input, const std::string& partitions_conf, const std::string& output_path,
                          std::ostream& out, std::ostream& err) {
  PartitionsSpec partitions = default_partitions();
  std::string partitions_section;
  if (!partitions_conf.empty()) {
    Result<std::string> text = read_regular_file(partitions_conf, kMaxPolicyBytes, "partitions file");
    if (!text.ok()) {
      err << printable_text(text.error().message) << "\n";
      return kBadInputExit;
    }
    Result<PartitionsImport> imported = parse_partitions_conf(*text, partitions_conf);
    if (!imported.ok()) {
      err << printable_text(imported.error().message) << "\n";
      return kBadInputExit;
    }
    for (const std::string& w : imported->warnings) err << "warning: " << printable_text(w) << "\n";
    partitions = std::move(imported->spec);
    partitions_section = "\n# Converted from " + partitions_conf + " (the QoS port groups name its partitions).\n" +
                         partitions_yaml(partitions);
  }
  Result<std::string> text = read_regular_file(input, kMaxPolicyBytes, "QoS policy file");
  if (!text.ok()) {
    err << printable_text(text.error().message) << "\n";
    return kBadInputExit;
  }
  Result<QosPolicyImport> imported = parse_qos_policy_conf(*text, input, partitions);
  if (!imported.ok()) {
    err << printable_text(imported.error().message) << "\n";
    return kBadInputExit;
  }
  for (const std::string& w : imported->warnings) err << "warning: " << printable_text(w) << "\n";
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
  if (output_path.empty()) {
    out << yaml;
    return 0;
  }
  if (Status st = write_file_atomic(output_path, yaml); !st.ok()) {
    err << "cannot write " << output_path << ": " << printable_text(st.error().message) << "\n";
    return kWriteFailExit;
  }
  return 0;
}

void add_import_qos_policy_command(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* command = app.add_subcommand("import-qos-policy",
                                         "Convert OpenSM's qos-policy.conf into the policy's qos: section (YAML)");
  command->add_option("FILE", args->input, "OpenSM QoS policy file, e.g. /etc/opensm/qos-policy.conf")->required();
  command->add_option("--partitions", args->partitions,
                      "the partitions.conf whose partitions the port groups name (converted and written too)");
  command->add_option("-o,--output", args->output, "Write the YAML here instead of stdout");
  command->callback([args] {
    const int code = run_import_qos_policy(args->input, args->partitions, args->output, std::cout, std::cerr);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace smd
