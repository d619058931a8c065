#include "smd/cli/import_shell.h"

#include <CLI/CLI.hpp>
#include "smd/cli/same_file.h"
#include "smd/state/atomic_file.h"

namespace smd::import_shell {

void report_lines(std::ostream& err, const char* prefix, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) err << prefix << ": " << printable_text(line) << "\n";
}

bool output_is_an_input(const char* command, const std::string& output_path,
                        const std::vector<std::pair<const char*, std::string>>& inputs, std::ostream& err) {
  if (output_path.empty() || output_path == "-") return false;
  for (const auto& [option, path] : inputs) {
    if (path.empty()) continue;
    if (!same_file(output_path, path)) continue;
    err << command << ": -o " << printable_text(output_path) << " is the same file as " << option << " "
        << printable_text(path) << ": refused, nothing written\n";
    return true;
  }
  return false;
}

int write_converted(const std::string& yaml, const std::string& output_path, std::ostream& out, std::ostream& err) {
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

std::pair<CLI::App*, std::shared_ptr<ImportArgs>> add_import_command(CLI::App& app, const char* name,
                                                                     const char* description, const char* file_help,
                                                                     bool file_optional,
                                                                     std::function<int(const ImportArgs&)> run) {
  // CLI11 binds options to storage that must outlive parsing; the callback owns it with the subcommand.
  auto args = std::make_shared<ImportArgs>();
  CLI::App* command = app.add_subcommand(name, description);
  CLI::Option* file = command->add_option("FILE", args->input, file_help);
  if (!file_optional) file->required();
  command->add_option("-o,--output", args->output, "Write the YAML here instead of stdout");
  command->callback([args, run = std::move(run)] {
    if (const int code = run(*args); code != 0) throw CLI::RuntimeError(code);
  });
  return {command, args};
}

}  // namespace smd::import_shell
