#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

#include "config/opensm_conf.h"
#include "config/opensm_import.h"
#include "smd/cli/import_commands.h"
#include "smd/cli/import_shell.h"

namespace smd {

namespace {

using import_shell::kBadInputExit;

// Markdown cells hold no '|'.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) out += c == '|' ? '/' : c;
  return out;
}

}  // namespace

int run_import_opensm(const std::string& input, const std::string& partitions, const std::string& qos_policy,
                      const std::string& output_path, std::ostream& out, std::ostream& err) {
  if (import_shell::output_is_an_input("import-opensm-conf", output_path, {{"FILE", input}, {"--partitions", partitions}, {"--qos-policy", qos_policy}}, err)) return kBadInputExit;
  OpenSmImportInputs inputs;
  inputs.read_file = [](const std::string& path, const std::string& what) {
    return read_regular_file(path, kMaxPolicyBytes, what);
  };
  inputs.partitions_file = partitions;
  inputs.qos_policy_file = qos_policy;
  inputs.policy_path = output_path == "-" ? std::string() : output_path;
  const std::function<Result<OpenSmImport>(const std::string&)> convert =
      [&](const std::string& text) -> Result<OpenSmImport> {
    auto settings = parse_opensm_conf(text, input);
    if (!settings.ok()) return settings.error();
    return import_opensm_conf(*settings, input, inputs);
  };
  const auto imported = import_shell::read_and_convert(input, "OpenSM configuration", convert, err);
  if (!imported) return kBadInputExit;
  import_shell::report_lines(err, "warning", imported->warnings);
  import_shell::report_lines(err, "carried", imported->carried);
  import_shell::report_lines(err, "not carried", imported->not_carried);
  import_shell::report_lines(err, "default differs (smd's kept)", imported->defaults_differ);
  err << input << ": " << imported->carried.size() << " carried over, " << imported->not_carried.size()
      << " not carried, " << imported->at_default << " at OpenSM's default (smd's defaults apply)\n";
  return import_shell::write_converted(imported->yaml, output_path, out, err);
}

void print_opensm_options_table(std::ostream& out) {
  // The count per fate first: the figure a migration asks for, kept true with the rows below.
  const std::vector<OpenSmOption>& options = opensm_options();
  out << "| smd | options |\n|---|---|\n";
  for (OpenSmFate fate : {OpenSmFate::kEquivalent, OpenSmFate::kPartial, OpenSmFate::kBuiltIn, OpenSmFate::kMissing,
                          OpenSmFate::kNotApplicable}) {
    out << "| " << to_string(fate) << " | "
        << std::count_if(options.begin(), options.end(), [fate](const OpenSmOption& o) { return o.fate == fate; })
        << " |\n";
  }
  out << "| all | " << options.size() << " |\n\n";
  out << "| OpenSM option | OpenSM default | smd | policy key | note |\n|---|---|---|---|---|\n";
  for (const OpenSmOption& o : opensm_options()) {
    out << "| `" << o.name << "` | `" << cell(o.opensm_default) << "` | " << to_string(o.fate) << " | "
        << (o.smd_key.empty() ? "" : "`" + std::string(o.smd_key) + "`") << " | " << cell(o.note)
        << (o.smd_default.empty()
                ? ""
                : std::string(o.note.empty() ? "" : "; ") + "smd's default: `" + cell(o.smd_default) + "`")
        << " |\n";
  }
}

void add_import_opensm_command(CLI::App& app) {
  auto [command, args] = import_shell::add_import_command(
      app, "import-opensm-conf",
      "Convert OpenSM's opensm.conf (and the partitions.conf and qos-policy.conf it names) into an smd policy (YAML)",
      "OpenSM configuration, e.g. /etc/opensm/opensm.conf", /*file_optional=*/true,
      [](const import_shell::ImportArgs& a) {
        if (a.table) {
          print_opensm_options_table(std::cout);
          return 0;
        }
        if (a.input.empty()) {
          std::cerr << "import-opensm-conf: FILE is required\n";
          return kBadInputExit;
        }
        return run_import_opensm(a.input, a.partitions, a.qos_policy, a.output, std::cout, std::cerr);
      });
  command->add_option("--partitions", args->partitions,
                      "read this partitions.conf instead of the one partition_config_file names");
  command->add_option("--qos-policy", args->qos_policy,
                      "read this qos-policy.conf instead of the one qos_policy_file names (used when qos is TRUE)");
  command->add_flag("--options-table", args->table,
                    "print every OpenSM option with what smd makes of it (Markdown) and exit");
}

}  // namespace smd
