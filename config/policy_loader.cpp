#include "config/policy_loader.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "config/yaml_fields.h"
#include "routing/registry.h"

namespace smd {

namespace {

// The schema: one function per section, in the order config/smd.yaml documents the keys. Ranges come from
// the IBA where it fixes them (SMInfo priority 0..15, LMC 0..7, port numbers up to 254) and otherwise
// bound values that would make the daemon useless rather than merely slow.

void read_sm(MapReader sm, SmPolicy& out, Diagnostics& diag) {
  sm.read_string("state_dir", out.state_dir, /*non_empty=*/true);
  sm.read_string("ca", out.ca);
  sm.read_unsigned("port", 0, 254, out.port);
  sm.read_u64("port_guid", out.port_guid);
  sm.read_unsigned("priority", 0, 15, out.priority);
  sm.read_u64("sm_key", out.sm_key);
  sm.read_u64("subnet_prefix", out.subnet_prefix);
  sm.read_unsigned("sweep_interval", 0, 86400, out.sweep_interval_s);
  sm.read_unsigned("max_resweeps", 0, 20, out.max_resweeps);
  sm.read_unsigned("poll_interval", 1, 3600, out.poll_interval_s);
  sm.read_unsigned("poll_retries", 1, 100, out.poll_retries);
  sm.finish();
  // A port GUID names one port on one CA by itself; a port number as well would leave the daemon to guess
  // which of the two the operator meant.
  if (out.port_guid != 0 && out.port != 0) {
    if (std::optional<YAML::Mark> mark = sm.key_mark("port_guid")) {
      diag.fail(*mark, "sm.port_guid",
                "selects the SM port by itself; set sm.port to 0 (it is " + std::to_string(out.port) + ")");
    }
  }
}

void read_routing(MapReader routing, RoutingPolicy& out) {
  // Asked on every load, not cached: the registry is the single source of engine names.
  const std::vector<std::string> engines = engine_names();
  routing.read_name_list("engines", "engine", engines, out.engines);
  routing.read_bool("adaptive", out.options.adaptive);
  MapReader updn = routing.section("updn");
  updn.read_guid_list("roots", out.options.updn_roots);
  updn.finish();
  MapReader ftree = routing.section("ftree");
  ftree.read_guid_list("roots", out.options.ftree_roots);
  ftree.finish();
  routing.finish();
}

void read_lid(MapReader lid, LidPolicy& out) {
  lid.read_unsigned("lmc", 0, 7, out.lmc);
  lid.finish();
}

void read_mad(MapReader mad, MadPolicy& out) {
  mad.read_unsigned("window", 1, 64, out.window);
  mad.read_unsigned("timeout_ms", 1, 60000, out.timeout_ms);
  mad.read_unsigned("retries", 0, 20, out.retries);
  mad.finish();
}

void read_control(MapReader control, ControlPolicy& out, Diagnostics& diag) {
  control.read_string("socket", out.socket, /*non_empty=*/true);
  // File modes are octal by convention; YAML would read 0660 as decimal 660, so the mode is a string.
  std::string mode;
  control.read_string("mode", mode);
  if (!mode.empty()) {
    unsigned value = 0;
    bool valid = mode.size() <= 4;
    for (char c : mode) {
      valid = valid && c >= '0' && c <= '7';
      value = value * 8 + static_cast<unsigned>(c - '0');
    }
    if (!valid) {
      if (std::optional<YAML::Mark> mark = control.key_mark("mode")) {
        diag.fail(*mark, "control.mode", "'" + mode + "' is not an octal file mode such as \"0660\"");
      }
    } else {
      out.mode = value;
    }
  }
  control.finish();
}

void read_metrics(MapReader metrics, MetricsPolicy& out) {
  metrics.read_string("listen", out.listen, /*non_empty=*/true);
  metrics.read_bool("enabled", out.enabled);
  metrics.finish();
}

void read_roce(MapReader roce, RocePolicy& out) {
  roce.read_bool("export", out.export_plan);
  roce.read_bool("frr", out.frr);
  roce.finish();
}

void read_log(MapReader log, LogPolicy& out) {
  log.read_choice("level", log_level_names(), out.level);
  log.read_string("file", out.file);
  log.finish();
}

}  // namespace

const std::vector<std::string>& log_level_names() {
  static const std::vector<std::string> names = {"trace", "debug", "info", "warn", "error", "critical", "off"};
  return names;
}

Result<Policy> load_policy_string(const std::string& yaml, const std::string& source_name) {
  Diagnostics diag(source_name);
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(yaml);
  } catch (const YAML::Exception& e) {
    diag.fail(e.mark, "", "YAML syntax error: " + e.msg);
    return diag.error();
  }

  Policy policy;
  policy.source = source_name;
  if (documents.empty()) return policy;  // empty, or only comments: every default
  if (documents.size() > 1) {
    // A second document would be ignored silently by anything reading only the first; say so instead.
    diag.fail(documents[1].Mark(), "", "a policy is one YAML document; found " + std::to_string(documents.size()));
    return diag.error();
  }

  MapReader top(documents[0], "", YAML::Mark(), diag);
  read_sm(top.section("sm"), policy.sm, diag);
  read_routing(top.section("routing"), policy.routing);
  read_lid(top.section("lid"), policy.lid);
  read_mad(top.section("mad"), policy.mad);
  read_log(top.section("log"), policy.log);
  read_control(top.section("control"), policy.control, diag);
  read_metrics(top.section("metrics"), policy.metrics);
  read_roce(top.section("roce"), policy.roce);
  top.finish();
  if (!diag.ok()) return diag.error();
  return policy;
}

Result<Policy> load_policy_file(const std::string& path) {
  // A directory opens fine and then reads as nothing, which would pass for an empty (all defaults) policy.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return make_error(ErrorCode::kIo, "cannot read policy file " + path + ": it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::kIo, "cannot open policy file " + path + ": " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    return make_error(ErrorCode::kIo, "cannot read policy file " + path + ": " + std::strerror(errno));
  }
  return load_policy_string(text.str(), path);
}

Status check_policy_file_permissions(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return make_error(ErrorCode::kIo, "cannot stat policy file " + path + ": " + std::strerror(errno));
  }
  mode_t mode = st.st_mode & 07777;
  if ((mode & (S_IWGRP | S_IWOTH)) != 0) {
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode));
    return make_error(ErrorCode::kInvalidInput, "policy file " + path + " has mode " + octal +
                                                    ": group or others may write it; run chmod go-w " + path);
  }
  return Ok{};
}

}  // namespace smd
