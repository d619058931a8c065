// The SM-owned PortInfo fields' answers kept across restarts (smd/state/port_fields_file.h): read once per
// process before the first configuring sweep writes anything, written back after each sweep that changed them.
#include <spdlog/spdlog.h>

#include <filesystem>

#include "smd/state/port_fields_file.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

void SweepRunner::load_port_fields() {
  if (port_fields_loaded_) return;
  port_fields_loaded_ = true;
  const std::string path = policy_.sm.state_dir + "/" + kPortFieldsFile;
  auto loaded = read_port_fields(path);
  if (!loaded) {
    // Left for the operator to look at: this process neither trusts nor replaces it.
    spdlog::warn("port-fields: {}; the ports' fields are judged by what they report, and the file is left as it is",
                 loaded.error().message);
    port_fields_refused_ = true;
    return;
  }
  for (const std::string& p : loaded->problems) spdlog::warn("port-fields: {}: {} (entry ignored)", path, p);
  // What this process learnt before (none: loading comes first) wins over the file.
  for (const auto& [key, acks] : loaded->fields.ports()) {
    if (applied_port_fields_.port(key.node_guid, key.port) == nullptr) applied_port_fields_.restore(key, acks);
  }
  port_fields_written_ = applied_port_fields_;
}

void SweepRunner::save_port_fields() {
  if (port_fields_refused_) return;
  const std::string path = policy_.sm.state_dir + "/" + kPortFieldsFile;
  std::error_code ec;
  if (port_fields_written_ == applied_port_fields_ && std::filesystem::exists(path, ec)) return;
  std::filesystem::create_directories(policy_.sm.state_dir, ec);
  if (auto st = write_port_fields(path, applied_port_fields_); !st.ok()) {
    spdlog::error("port-fields: {}", st.error().message);
    port_fields_written_.reset();
    return;
  }
  port_fields_written_ = applied_port_fields_;
}

}  // namespace smd
