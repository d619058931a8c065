// The SM-owned PortInfo fields' answers kept across restarts (smd/state/port_fields_file.h): read once per
// process before the first configuring sweep writes anything, written back after each sweep that changed them.
#include <spdlog/spdlog.h>

#include "smd/state/port_fields_file.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

void SweepRunner::load_port_fields() {
  if (port_fields_file_.loaded()) return;
  const std::string path = policy_.sm.state_dir + "/" + kPortFieldsFile;
  auto loaded = read_port_fields(path);
  if (!loaded) {
    // Left for the operator to look at: this process neither trusts nor replaces it.
    spdlog::warn("port-fields: {}; the ports' fields are judged by what they report, and the file is left as it is",
                 loaded.error().message);
    port_fields_file_.refuse();
    return;
  }
  for (const std::string& p : loaded->problems) spdlog::warn("port-fields: {}: {} (entry ignored)", path, p);
  // What this process learnt before (none: loading comes first) wins over the file.
  for (const auto& [key, acks] : loaded->fields.ports()) {
    if (applied_.port_fields.port(key.node_guid, key.port) == nullptr) applied_.port_fields.restore(key, acks);
  }
  port_fields_file_.loaded_as(applied_.port_fields);
}

void SweepRunner::save_port_fields() {
  port_fields_file_.save(policy_.sm.state_dir, policy_.sm.state_dir + "/" + kPortFieldsFile, applied_.port_fields,
                         write_port_fields, "port-fields");
}

}  // namespace smd
