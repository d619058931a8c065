#include "smd/cli/effective_config_command.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <nlohmann/json.hpp>

#include "config/effective_policy.h"

namespace smd {

namespace {

/// A YAML value as JSON: true/false as booleans, plain decimal numbers as numbers, other scalars (hex
/// GUIDs and keys, octal modes, names) as strings.
nlohmann::json yaml_to_json(const YAML::Node& node) {
  if (node.IsSequence()) {
    nlohmann::json list = nlohmann::json::array();
    for (const YAML::Node& item : node) list.push_back(yaml_to_json(item));
    return list;
  }
  if (node.IsMap()) {
    nlohmann::json map = nlohmann::json::object();
    for (const auto& pair : node) map[pair.first.Scalar()] = yaml_to_json(pair.second);
    return map;
  }
  if (!node.IsScalar()) return nullptr;
  const std::string& text = node.Scalar();
  if (text == "true") return true;
  if (text == "false") return false;
  const bool decimal = !text.empty() && text.size() <= 19 && (text == "0" || text[0] != '0') &&
                       std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (decimal) return std::stoull(text);
  return text;
}

}  // namespace

CLI::App* add_effective_config_command(CLI::App& app, bool& json) {
  CLI::App* command = app.add_subcommand(
      "config",
      "Print every policy key with its effective value and origin (default, FILE:LINE:COLUMN, an option, "
      "instance NAME), for the -c/-F, --instance and -p/-g/-R given");
  // `smd config` alone does the same: the effective policy is all it prints (as `opensm -c`).
  command->add_flag("--effective")->description("Print the effective policy (YAML that smd can load); the default");
  command->add_flag("--json", json, "JSON instead of YAML");
  // -c, -p, -g, -R, --instance after `config` belong to smd itself, as before it.
  command->fallthrough();
  return command;
}

int run_effective_config(const StartupPolicy& steps, bool json, std::ostream& out) {
  const std::vector<EffectiveKey> keys = effective_keys(
      EffectiveInputs{steps.file_notes, steps.config_path, steps.loaded, steps.with_instance, steps.effective});
  if (!json) {
    out << effective_yaml(keys);
    return 0;
  }
  nlohmann::json doc;
  doc["source"] = steps.config_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(steps.config_path);
  doc["keys"] = nlohmann::json::array();
  for (const EffectiveKey& key : keys) {
    // A string key's value is a string, whatever its text looks like ("123", "true").
    const nlohmann::json value =
        key.string && key.value.IsScalar() ? nlohmann::json(key.value.Scalar()) : yaml_to_json(key.value);
    doc["keys"].push_back({{"key", key.key}, {"value", value}, {"origin", key.origin}});
  }
  // Paths are bytes: one that is not UTF-8 is written with U+FFFD, as every JSON writer of smd does.
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

}  // namespace smd
