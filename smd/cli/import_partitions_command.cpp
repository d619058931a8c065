#include "smd/cli/import_partitions_command.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>

#include "config/partitions_conf.h"
#include "config/partitions_yaml.h"
#include "config/text_file.h"
#include "routing/base/safe_text.h"
#include "smd/state/atomic_file.h"

namespace smd {

namespace {

constexpr int kBadInputExit = 2;   // as check-config: the input is at fault
constexpr int kWriteFailExit = 4;  // as plan: the output could not be written

struct ImportArgs {
  std::string input;
  std::string output;
};

}  // namespace

int run_import_partitions(const std::string& input, const std::string& output_path, std::ostream& out,
                          std::ostream& err) {
  Result<std::string> text = read_regular_file(input, kMaxPolicyBytes, "partitions file");
  if (!text.ok()) {
    err << printable_text(text.error().message) << "\n";
    return kBadInputExit;
  }
  Result<PartitionsImport> imported = parse_partitions_conf(*text, input);
  if (!imported.ok()) {
    err << printable_text(imported.error().message) << "\n";
    return kBadInputExit;
  }
  for (const std::string& warning : imported->warnings) err << "warning: " << printable_text(warning) << "\n";
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
  if (output_path.empty()) {
    out << yaml;
    return 0;
  }
  // Nothing half-written: a reader of OUT sees the old file or the whole new one; a device, FIFO or
  // symlink at OUT (or planted at OUT.tmp) is refused, never replaced or followed.
  if (Status st = write_file_atomic(output_path, yaml); !st.ok()) {
    err << "cannot write " << output_path << ": " << printable_text(st.error().message) << "\n";
    return kWriteFailExit;
  }
  return 0;
}

void add_import_partitions_command(CLI::App& app) {
  auto args = std::make_shared<ImportArgs>();
  CLI::App* command = app.add_subcommand(
      "import-partitions", "Convert OpenSM's partitions.conf into the policy's partitions: section (YAML)");
  command->add_option("FILE", args->input, "OpenSM partitions file, e.g. /etc/opensm/partitions.conf")->required();
  command->add_option("-o,--output", args->output, "Write the YAML here instead of stdout");
  command->callback([args] {
    int code = run_import_partitions(args->input, args->output, std::cout, std::cerr);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace smd
