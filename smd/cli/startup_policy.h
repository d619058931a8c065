// The policy `smd` starts with, step by step: the policy file (or smd-NAME.yaml of an --instance), then
// --instance, then the command-line overrides (-p, -g, -R). The daemon and `smd config --effective` build
// it the same way, so what the second prints is what the first runs.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "config/policy.h"
#include "config/yaml_fields.h"

namespace smd {

/// The policy at each step, and where it was read from.
struct StartupPolicy {
  std::string config_path;          ///< the file read: --config, or the instance's smd-NAME.yaml; "" = none
  std::vector<KeyNote> file_notes;  ///< the loader's notes of that file (config/effective_policy.h)
  Policy loaded;                    ///< as the file (or the defaults) gave it
  Policy with_instance;             ///< after --instance and --metrics-listen
  Policy effective;                 ///< after the overrides: what smd runs with
};

/// Builds the steps. `instance.name` non-empty means --instance was given; `check_permissions` refuses a
/// policy file group or others may write (the daemon's rule). On failure writes "smd: ..." to `err` and
/// returns nullopt (main exits 2).
std::optional<StartupPolicy> build_startup_policy(const std::string& config_path, const InstancePolicy& instance,
                                                  bool instance_given, const PolicyOverrides& overrides,
                                                  bool check_permissions, std::ostream& err);

}  // namespace smd
