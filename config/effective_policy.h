// `smd config --effective` (OpenSM's `opensm -c` analogue): every policy key with its effective value and
// where that value came from. The list of keys is the loader's own (policy_key_values), so a key added to a
// section reader shows here without more code; the origin of a key is, first that applies: the command-line
// override that set it, the --instance that changed it, the place in the policy file that wrote it, else
// the default. The YAML text is itself a policy file: loaded again, it gives the same effective policy.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "config/policy.h"
#include "config/yaml_fields.h"

namespace smd {

/// One key of the effective policy. The two sections that are lists of structures are one key each:
/// `partitions` (written from the loaded spec, every key: config/partitions_yaml.h) and `qos` when the file
/// has it (written as the file has it: its per-port-type blocks inherit the top-level values, so writing
/// only what the file wrote keeps the inheritance). Without qos in the file, every qos key is listed.
struct EffectiveKey {
  std::string key;     ///< dotted path: "sm.priority", "routing.updn.roots", "partitions"
  YAML::Node value;    ///< scalar, list of scalars, or (partitions, qos) the whole section
  std::string origin;  ///< "default", "FILE:LINE:COLUMN", "--priority" (the option), "instance NAME"
  /// No value can be written (KeyNote::unset: sa.services_file ""): the YAML carries "# KEY: unset" instead.
  bool unset = false;
  /// A string key (log.file, sm.state_dir): written quoted where the text would read as another type.
  bool string = false;
};

/// What effective_keys needs: the notes the loader took of the file (load_policy_file with notes; empty
/// without a file), and the policy at each step of main(): as loaded, after --instance, after the overrides.
struct EffectiveInputs {
  const std::vector<KeyNote>& file_notes;
  std::string source;  ///< the policy file's name, for FILE in origins
  const Policy& loaded;
  const Policy& with_instance;
  const Policy& effective;
};

/// Every key in loader order with its value and origin.
std::vector<EffectiveKey> effective_keys(const EffectiveInputs& in);

/// The keys as one YAML document of nested maps, each value followed by "# origin"; lists of scalars in
/// flow style; a string key whose text a YAML reader would take for a boolean, number or null ("true",
/// "123", "~") double-quoted. Ends with a newline.
std::string effective_yaml(const std::vector<EffectiveKey>& keys);

/// The typed keys of the loader's list (policy_key_values of the defaults) that `dumped` (effective_yaml's
/// text) lacks, as dotted paths in loader order: empty when the dump is complete. A key unset by default
/// counts when it is a key of the text or its "# LEAF: unset" comment is.
/// Errors: kInvalidInput when `dumped` is not YAML.
Result<std::vector<std::string>> keys_missing_from(const std::string& dumped);

}  // namespace smd
