#include "smd/sm/policy_reload.h"

#include <array>
#include <cstdio>
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
  std::string (*show)(const Policy&);
  void (*keep)(const Policy& running, Policy& file);
};

// clang-format off
const std::array<RestartKey, 13> kRestartKeys = {{
    {"sm.ca", [](const Policy& p) { return text(p.sm.ca); }, [](const Policy& r, Policy& f) { f.sm.ca = r.sm.ca; }},
    {"sm.port", [](const Policy& p) { return number(p.sm.port); }, [](const Policy& r, Policy& f) { f.sm.port = r.sm.port; }},
    {"sm.port_guid", [](const Policy& p) { return hex64(p.sm.port_guid); }, [](const Policy& r, Policy& f) { f.sm.port_guid = r.sm.port_guid; }},
    {"sm.state_dir", [](const Policy& p) { return text(p.sm.state_dir); }, [](const Policy& r, Policy& f) { f.sm.state_dir = r.sm.state_dir; }},
    {"mad.window", [](const Policy& p) { return number(p.mad.window); }, [](const Policy& r, Policy& f) { f.mad.window = r.mad.window; }},
    {"mad.timeout_ms", [](const Policy& p) { return number(p.mad.timeout_ms); }, [](const Policy& r, Policy& f) { f.mad.timeout_ms = r.mad.timeout_ms; }},
    {"mad.retries", [](const Policy& p) { return number(p.mad.retries); }, [](const Policy& r, Policy& f) { f.mad.retries = r.mad.retries; }},
    {"log.level", [](const Policy& p) { return text(p.log.level); }, [](const Policy& r, Policy& f) { f.log.level = r.log.level; }},
    {"log.file", [](const Policy& p) { return text(p.log.file); }, [](const Policy& r, Policy& f) { f.log.file = r.log.file; }},
    {"control.socket", [](const Policy& p) { return text(p.control.socket); }, [](const Policy& r, Policy& f) { f.control.socket = r.control.socket; }},
    {"control.mode", [](const Policy& p) { return octal(p.control.mode); }, [](const Policy& r, Policy& f) { f.control.mode = r.control.mode; }},
    {"metrics.listen", [](const Policy& p) { return text(p.metrics.listen); }, [](const Policy& r, Policy& f) { f.metrics.listen = r.metrics.listen; }},
    {"metrics.enabled", [](const Policy& p) { return boolean(p.metrics.enabled); }, [](const Policy& r, Policy& f) { f.metrics.enabled = r.metrics.enabled; }},
}};
// clang-format on

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
