#include "smd/sm/policy_reload.h"

#include <array>
#include <cstdio>
#include <functional>
#include <string>

namespace smd {

namespace {

std::string text(const std::string& s) { return s.empty() ? "\"\"" : s; }
std::string number(unsigned v) { return std::to_string(v); }
std::string boolean(bool v) { return v ? "true" : "false"; }

std::string hex64(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string octal(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0%o", v);
  return buf;
}

/// One restart-only key: how its value is shown, and how the running value is put back.
struct RestartKey {
  const char* key;
  std::function<std::string(const Policy&)> show;
  std::function<void(const Policy& running, Policy& file)> keep;
};

// The key `name` is the field `field` of the section `section` of a Policy, shown by `format`.
template <typename Section, typename Field, typename Shown>
RestartKey restart_key(const char* name, Section Policy::*section, Field Section::*field,
                       std::string (*format)(Shown)) {
  return {name, [=](const Policy& p) { return format(p.*section.*field); },
          [=](const Policy& running, Policy& file) { file.*section.*field = running.*section.*field; }};
}

const std::array<RestartKey, 16> kRestartKeys = {
    restart_key("sm.ca", &Policy::sm, &SmPolicy::ca, text),
    restart_key("sm.port", &Policy::sm, &SmPolicy::port, number),
    restart_key("sm.port_guid", &Policy::sm, &SmPolicy::port_guid, hex64),
    restart_key("sm.state_dir", &Policy::sm, &SmPolicy::state_dir, text),
    restart_key("mad.window", &Policy::mad, &MadPolicy::window, number),
    restart_key("mad.timeout_ms", &Policy::mad, &MadPolicy::timeout_ms, number),
    restart_key("mad.retries", &Policy::mad, &MadPolicy::retries, number),
    restart_key("log.file", &Policy::log, &LogPolicy::file, text),
    restart_key("control.socket", &Policy::control, &ControlPolicy::socket, text),
    restart_key("control.mode", &Policy::control, &ControlPolicy::mode, octal),
    restart_key("metrics.listen", &Policy::metrics, &MetricsPolicy::listen, text),
    restart_key("metrics.enabled", &Policy::metrics, &MetricsPolicy::enabled, boolean),
    restart_key("sa.enabled", &Policy::sa, &SaPolicy::enabled, boolean),
    restart_key("sa.queue_depth", &Policy::sa, &SaPolicy::queue_depth, number),
    restart_key("sa.services_file", &Policy::sa, &SaPolicy::services_file, text),
    restart_key("sa.alias_guid_byte", &Policy::sa, &SaPolicy::alias_guid_byte, number),
};

}  // namespace

std::vector<RestartNeeded> keys_needing_restart(const Policy& running, const Policy& file) {
  std::vector<RestartNeeded> out;
  for (const RestartKey& k : kRestartKeys) {
    std::string was = k.show(running);
    std::string wants = k.show(file);
    if (was != wants) out.push_back({k.key, std::move(was), std::move(wants)});
  }
  return out;
}

Policy keep_restart_keys(const Policy& running, Policy file) {
  for (const RestartKey& k : kRestartKeys) k.keep(running, file);
  return file;
}

}  // namespace smd
