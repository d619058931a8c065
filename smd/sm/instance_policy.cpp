#include "smd/sm/instance_policy.h"

#include <filesystem>
#include <system_error>

#include "smd/protocol/instance_name.h"

namespace smd {

std::string instance_policy_path(const std::string& config, std::string_view name) {
  if (config.empty()) return config;
  const std::filesystem::path own =
      std::filesystem::path(config).parent_path() / ("smd-" + std::string(name) + ".yaml");
  std::error_code ec;
  // Anything of that name is the instance's: a folder, a FIFO or a dangling link is then refused by the
  // loader with its path, not passed over for the shared file (which would run with the wrong policy).
  return std::filesystem::symlink_status(own, ec).type() != std::filesystem::file_type::not_found ? own.string()
                                                                                                    : config;
}

void apply_instance(Policy& policy, const InstancePolicy& instance) {
  policy.instance = instance;
  if (!instance.metrics_listen.empty()) policy.metrics.listen = instance.metrics_listen;
  if (instance.name.empty()) return;
  const std::string& name = instance.name;
  policy.sm.state_dir = instance_state_dir(policy.sm.state_dir, name);
  policy.control.socket = instance_socket_path(policy.control.socket, name);
  if (std::optional<Guid> guid = instance_port_guid(name)) {
    policy.sm.port_guid = *guid;
    policy.sm.ca.clear();
    policy.sm.port = 0;
  }
  if (instance.own_policy_file) return;
  if (!policy.log.file.empty()) policy.log.file = instance_socket_path(policy.log.file, name);
  if (!policy.sa.services_file.empty()) policy.sa.services_file = instance_socket_path(policy.sa.services_file, name);
  if (instance.metrics_listen.empty()) policy.metrics.enabled = false;
}

std::string describe_instance(const Policy& policy) {
  const InstancePolicy& in = policy.instance;
  if (in.name.empty()) return "";
  std::string text = "instance " + in.name + " (policy " + policy.source +
                     (in.own_policy_file ? ", its own" : ", shared") + "): state_dir " + policy.sm.state_dir +
                     ", socket " + policy.control.socket + ", metrics ";
  if (!policy.metrics.enabled) {
    text += in.own_policy_file || !in.metrics_listen.empty()
                ? "off"
                : "off (a shared metrics.listen serves one daemon: set it in smd-" + in.name +
                      ".yaml or pass --metrics-listen)";
  } else {
    text += policy.metrics.listen;
  }
  return text;
}

}  // namespace smd
