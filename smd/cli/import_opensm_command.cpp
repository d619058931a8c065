#include "smd/cli/import_opensm_command.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

#include "config/opensm_conf.h"
#include "config/opensm_import.h"
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
  std::string qos_policy;
  std::string output;
  bool table = false;
};

// Markdown cells hold no '|'.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) out += c == '|' ? '/' : c;
  return out;
}

}  // namespace

int run_import_opensm(const std::string& input, const std::string& partitions, const std::string& qos_policy,
                      const std::string& output_path, std::ostream& out, std::ostream& err) {
  Result<std::string> text = read_regular_file(input, kMaxPolicyBytes, "OpenSM configuration");
  if (!text.ok()) {
    err << printable_text(text.error().message) << "\n";
    return kBadInputExit;
  }
  auto settings = parse_opensm_conf(*text, input);
  if (!settings.ok()) {
    err << printable_text(settings.error().message) << "\n";
    return kBadInputExit;
  }
  OpenSmImportInputs inputs;
  inputs.read_file = [](const std::string& path, const std::string& what) {
    return read_regular_file(path, kMaxPolicyBytes, what);
  };
  inputs.partitions_file = partitions;
  inputs.qos_policy_file = qos_policy;
  auto imported = import_opensm_conf(*settings, input, inputs);
  if (!imported.ok()) {
    err << printable_lines(imported.error().message) << "\n";
    return kBadInputExit;
  }
  for (const std::string& w : imported->warnings) err << "warning: " << printable_text(w) << "\n";
  for (const std::string& c : imported->carried) err << "carried: " << printable_text(c) << "\n";
  for (const std::string& n : imported->not_carried) err << "not carried: " << printable_text(n) << "\n";
  for (const std::string& d : imported->defaults_differ) {
    err << "default differs (smd's kept): " << printable_text(d) << "\n";
  }
  err << input << ": " << imported->carried.size() << " carried over, " << imported->not_carried.size()
      << " not carried, " << imported->at_default << " at OpenSM's default (smd's defaults apply)\n";
  if (output_path.empty()) {
    out << imported->yaml;
    return 0;
  }
  if (Status st = write_file_atomic(output_path, imported->yaml); !st.ok()) {
    err << "cannot write " << output_path << ": " << printable_text(st.error().message) << "\n";
    return kWriteFailExit;
  }
  return 0;
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
        << (o.smd_default.empty() ? "" : std::string(o.note.empty() ? "" : "; ") + "smd's default: `" +
                                             cell(o.smd_default) + "`")
        << " |\n";
  }
}

void add_import_opensm_command(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* command =
      app.add_subcommand("import-opensm-conf",
                         "Convert OpenSM's opensm.conf (and the partitions.conf and qos-policy.conf it names) into an smd policy (YAML)");
  command->add_option("FILE", args->input, "OpenSM configuration, e.g. /etc/opensm/opensm.conf");
  command->add_option("--partitions", args->partitions,
                      "read this partitions.conf instead of the one partition_config_file names");
  command->add_option("--qos-policy", args->qos_policy,
                      "read this qos-policy.conf instead of the one qos_policy_file names (used when qos is TRUE)");
  command->add_option("-o,--output", args->output, "Write the policy here instead of stdout");
  command->add_flag("--options-table", args->table,
                    "print every OpenSM option with what smd makes of it (Markdown) and exit");
  command->callback([args] {
    if (args->table) {
      print_opensm_options_table(std::cout);
      return;
    }
    if (args->input.empty()) {
      std::cerr << "import-opensm-conf: FILE is required\n";
      throw CLI::RuntimeError(kBadInputExit);
    }
    const int code = run_import_opensm(args->input, args->partitions, args->qos_policy, args->output, std::cout, std::cerr);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace smd
