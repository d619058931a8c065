#include "smd/cli/startup_policy.h"

#include "config/listen_address.h"
#include "config/policy_loader.h"
#include "config/policy_overrides.h"
#include "routing/base/safe_text.h"
#include "smd/protocol/instance_name.h"
#include "smd/sm/instance_policy.h"

namespace smd {

std::optional<StartupPolicy> build_startup_policy(const std::string& config_path, const InstancePolicy& instance_in,
                                                  bool instance_given, const PolicyOverrides& overrides,
                                                  bool check_permissions, std::ostream& err) {
  StartupPolicy out;
  InstancePolicy instance = instance_in;
  out.config_path = config_path;
  // Bad names stop here, before any file or folder is made from them.
  if (instance_given) {
    if (auto st = check_instance_name(instance.name); !st.ok()) {
      err << "smd: --instance: " << st.error().message << "\n";
      return std::nullopt;
    }
    out.config_path = instance_policy_path(config_path, instance.name);
    instance.own_policy_file = out.config_path != config_path;
  }
  if (!instance.metrics_listen.empty()) {
    if (auto parsed = parse_listen_address(instance.metrics_listen); !parsed.ok()) {
      err << "smd: --metrics-listen '" << printable_text(instance.metrics_listen) << "': " << parsed.error().message
          << "\n";
      return std::nullopt;
    }
  }
  if (!out.config_path.empty()) {
    if (check_permissions) {
      if (auto st = check_policy_file_permissions(out.config_path); !st.ok()) {
        err << "smd: " << printable_text(st.error().message) << "\n";
        return std::nullopt;
      }
    }
    auto loaded = load_policy_file(out.config_path, &out.file_notes);
    if (!loaded.ok()) {
      err << "smd: " << printable_lines(loaded.error().message) << "\n";
      return std::nullopt;
    }
    out.loaded = std::move(loaded.value());
  }
  out.with_instance = out.loaded;
  apply_instance(out.with_instance, instance);
  out.effective = out.with_instance;
  apply_overrides(out.effective, overrides);
  return out;
}

}  // namespace smd
