// The shell every import command runs its converter in: read an OpenSM file, convert it, report at
// FILE:line, write the YAML whole or not at all. The converters (config/) know nothing of files and
// exit codes; the commands (import_*_command.cpp) only say what to convert and how to report it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "config/text_file.h"
#include "routing/base/safe_text.h"
#include "routing/base/status.h"

namespace CLI {
class App;
}  // namespace CLI

namespace smd::import_shell {

constexpr int kBadInputExit = 2;   ///< as check-config: an input is at fault, nothing written
constexpr int kWriteFailExit = 4;  ///< as plan: the output could not be written

/// Read `path` (a regular file of at most kMaxPolicyBytes; `what` names it in errors, "partitions file")
/// and convert its text with `convert`. On failure the error (the converter's names FILE:line:column)
/// goes to `err` and the answer is nullopt: the command then exits kBadInputExit.
template <class T>
std::optional<T> read_and_convert(const std::string& path, const char* what,
                                  const std::function<Result<T>(const std::string& text)>& convert, std::ostream& err) {
  Result<std::string> text = read_regular_file(path, kMaxPolicyBytes, what);
  if (!text.ok()) {
    err << printable_text(text.error().message) << "\n";
    return std::nullopt;
  }
  Result<T> converted = convert(*text);
  if (!converted.ok()) {
    err << printable_lines(converted.error().message) << "\n";
    return std::nullopt;
  }
  return std::move(*converted);
}

/// "PREFIX: line" for each of `lines` ("warning", "carried"), made printable: a converter quotes the
/// input, which may hold control characters.
void report_lines(std::ostream& err, const char* prefix, const std::vector<std::string>& lines);

/// Whether `output_path` (-o) is the same file as one of `inputs` (option name, path; "" paths skipped),
/// by same_file (smd/cli/same_file.h: `./x` and `x`, a hard link, a symlink to it), not by text. If
/// so, says "COMMAND: -o OUT is the same file as OPTION IN: refused, nothing written" on `err` and returns
/// true: the command exits kBadInputExit before reading anything. An output that does not exist yet is
/// no input.
bool output_is_an_input(const char* command, const std::string& output_path,
                        const std::vector<std::pair<const char*, std::string>>& inputs, std::ostream& err);

/// The YAML to `output_path`, replaced atomically, or to `out` when it is "". Returns 0, or
/// kWriteFailExit after saying on `err` why the file could not be written.
int write_converted(const std::string& yaml, const std::string& output_path, std::ostream& out, std::ostream& err);

/// What an import command was given; each command binds the options it has (FILE and -o all of them).
struct ImportArgs {
  std::string input;       ///< FILE
  std::string output;      ///< -o, --output; "" = stdout
  std::string partitions;  ///< --partitions
  std::string qos_policy;  ///< --qos-policy
  bool table = false;      ///< --options-table
};

/// Register the import command `name` with FILE (required unless `file_optional`) and -o, bound to the
/// returned ImportArgs, which the command owns. On parsing, `run(args)` gives the exit code; a nonzero
/// one ends parsing with CLI::RuntimeError(code), so `smd` exits with it. The command's own options are
/// added to the returned App.
std::pair<CLI::App*, std::shared_ptr<ImportArgs>> add_import_command(CLI::App& app, const char* name,
                                                                     const char* description, const char* file_help,
                                                                     bool file_optional,
                                                                     std::function<int(const ImportArgs&)> run);

}  // namespace smd::import_shell
