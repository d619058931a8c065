#include "config/policy_loader.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "config/engine_option_reader.h"
#include "config/listen_address.h"
#include "config/node_name_map.h"
#include "config/partitions_section.h"
#include "config/multicast_section.h"
#include "config/cc_section.h"
#include "config/perfmgr_section.h"
#include "config/ports_section.h"
#include "config/qos_section.h"
#include "config/text_file.h"
#include "config/yaml_fields.h"
#include "config/yaml_scan.h"
#include "routing/chain/registry.h"

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
  sm.read_string("node_name_map", out.node_name_map);
  sm.read_bool("client_reregister", out.client_reregister);
  sm.read_bool("multicast", out.multicast);
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

// The file sm.node_name_map names, read now: a map that cannot be read refuses the policy (at start and on
// SIGHUP alike) instead of leaving names half-mapped. A relative path is taken from the policy file's
// folder, as netfile includes are from the including file's, so the daemon's working folder never matters.
void read_node_names(const MapReader& sm, const SmPolicy& in, const std::string& policy_source, Policy& out,
                     Diagnostics& diag) {
  if (in.node_name_map.empty()) return;
  std::string path = in.node_name_map;
  if (path.front() != '/') {
    const std::size_t slash = policy_source.rfind('/');
    if (slash != std::string::npos) path = policy_source.substr(0, slash + 1) + path;
  }
  std::vector<std::string> warnings;
  auto map = read_node_name_map_file(path, &warnings);
  if (!map.ok()) {
    const std::optional<YAML::Mark> mark = sm.value_mark_of("node_name_map");
    const std::string& all = map.error().message;
    for (std::size_t begin = 0; begin <= all.size();) {
      const std::size_t end = std::min(all.find('\n', begin), all.size());
      diag.fail(mark.value_or(YAML::Mark()), "sm.node_name_map", all.substr(begin, end - begin));
      begin = end + 1;
    }
    return;
  }
  for (std::string& w : warnings) out.warnings.push_back(std::move(w));
  out.node_names = std::make_shared<const NodeNameMap>(std::move(map.value()));
}

void read_routing(MapReader routing, RoutingPolicy& out, Diagnostics& diag) {
  // Asked on every load, not cached: the registry is the single source of engine names.
  const std::vector<std::string> engines = engine_names();
  routing.read_name_list("engines", "engine", engines, out.engines);
  routing.read_bool("adaptive", out.options.adaptive);
  std::string repair(repair_mode_name(out.repair));
  routing.read_choice("repair", repair_mode_names(), repair);
  out.repair = repair == repair_mode_name(RepairMode::kFull) ? RepairMode::kFull : RepairMode::kMinimal;
  // Phase one of each engine's factory: it reads its own section, routing.<engine>, in registry order.
  for (const EngineFactory* engine : engine_factories()) {
    if (!engine->has_options()) continue;
    MapReader section = routing.section(engine->section());
    MapOptionReader reader(section, diag);
    if (auto options = engine->parse(reader)) out.options.engines.set(engine->name(), std::move(options));
    section.finish();
  }
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
  // sockaddr_un::sun_path is 108 bytes with its NUL; a longer path would fail only when the daemon binds it.
  constexpr std::size_t kMaxSocketPath = 107;
  if (out.socket.size() > kMaxSocketPath) {
    if (std::optional<YAML::Mark> mark = control.value_mark_of("socket")) {
      diag.fail(*mark, "control.socket",
                "path is " + std::to_string(out.socket.size()) + " bytes; a Unix socket path holds at most " +
                    std::to_string(kMaxSocketPath));
    }
  }
  // File modes are octal by convention; YAML would read 0660 as decimal 660, so the mode is a string.
  // Started from the field's value, so that a key noted absent shows what the policy holds.
  char octal[8];
  std::snprintf(octal, sizeof octal, "%04o", out.mode);
  std::string mode = octal;
  control.read_string("mode", mode, /*non_empty=*/true);
  if (!mode.empty()) {
    unsigned value = 0;
    bool valid = mode.size() <= 4;
    for (char c : mode) {
      valid = valid && c >= '0' && c <= '7';
      value = value * 8 + static_cast<unsigned>(c - '0');
    }
    // Permission bits only: setuid, setgid and sticky mean nothing on a socket.
    valid = valid && value <= 0777;
    if (!valid) {
      if (std::optional<YAML::Mark> mark = control.key_mark("mode")) {
        diag.fail(*mark, "control.mode",
                  "'" + mode + "' is not an octal permission mode from \"0000\" to \"0777\" such as \"0660\"");
      }
    } else {
      out.mode = value;
    }
  }
  control.finish();
}

void read_metrics(MapReader metrics, MetricsPolicy& out, Diagnostics& diag) {
  std::string listen = out.listen;
  metrics.read_string("listen", listen, /*non_empty=*/true);
  if (!listen.empty()) {
    // The daemon binds this at start; an address it cannot bind must fail here, not after a restart.
    if (auto parsed = parse_listen_address(listen); !parsed) {
      if (std::optional<YAML::Mark> mark = metrics.value_mark_of("listen")) {
        diag.fail(*mark, "metrics.listen", "'" + listen + "': " + parsed.error().message);
      }
    } else {
      out.listen = listen;
    }
  }
  metrics.read_bool("enabled", out.enabled);
  metrics.finish();
}

void read_security(MapReader security, SecurityPolicy& out, Diagnostics& diag) {
  security.read_u64("m_key", out.m_key);
  security.read_unsigned("m_key_protect", 0, 3, out.m_key_protect);
  security.read_unsigned("m_key_lease_period", 0, 65535, out.m_key_lease_period_s);
  security.read_bool("m_key_per_port", out.m_key_per_port);
  security.finish();
  // Protection with key 0 would lock nothing and let anyone claim the ports; refuse the contradiction.
  if (out.m_key == 0 && out.m_key_protect != 0) {
    if (std::optional<YAML::Mark> mark = security.key_mark("m_key_protect")) {
      diag.fail(*mark, "security.m_key_protect", "needs security.m_key set (it is 0)");
    }
  }
}

void read_roce(MapReader roce, RocePolicy& out) {
  roce.read_bool("export", out.export_plan);
  roce.read_bool("frr", out.frr);
  roce.finish();
}

void read_sa(MapReader sa, SaPolicy& out) {
  sa.read_bool("enabled", out.enabled);
  sa.read_u64("key", out.key);
  sa.read_unsigned("packet_lifetime", 0, 63, out.packet_lifetime);
  sa.read_unsigned("queue_depth", 16, 1000000, out.queue_depth);
  sa.read_unsigned("report_retries", 0, 20, out.report_retries);
  sa.read_unsigned("report_timeout_ms", 10, 60000, out.report_timeout_ms);
  sa.read_unsigned("max_records", 1, 1000000, out.max_records);
  sa.read_string("services_file", out.services_file, /*non_empty=*/true);
  sa.read_unsigned("alias_guid_byte", 0, 255, out.alias_guid_byte);
  sa.read_bool("original_rates_only", out.original_rates_only);
  sa.read_bool("drop_absent_subscribers", out.drop_absent_subscribers);
  sa.finish();
}

void read_log(MapReader log, LogPolicy& out) {
  log.read_choice("level", log_level_names(), out.level);
  log.read_string("file", out.file);
  log.finish();
}

}  // namespace

std::string_view repair_mode_name(RepairMode mode) {
  switch (mode) {
    case RepairMode::kMinimal: return "minimal";
    case RepairMode::kFull: return "full";
  }
  return "minimal";
}

const std::vector<std::string>& repair_mode_names() {
  static const std::vector<std::string> names = {std::string(repair_mode_name(RepairMode::kMinimal)),
                                                 std::string(repair_mode_name(RepairMode::kFull))};
  return names;
}

const std::vector<std::string>& log_level_names() {
  static const std::vector<std::string> names = {"trace", "debug", "info", "warn", "error", "critical", "off"};
  return names;
}

namespace {

// Whether line `line` (0-based) of `text` is indented with a tab.
bool tab_indented(const std::string& text, int line) {
  std::size_t at = 0;
  for (int l = 0; l < line && at != std::string::npos; ++l) {
    at = text.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  if (at == std::string::npos) return false;
  const std::size_t first = text.find_first_not_of(" \t", at);
  return text.substr(at, (first == std::string::npos ? text.size() : first) - at).find('\t') != std::string::npos;
}

// What usually causes yaml-cpp's terser syntax errors in a hand-edited policy, said in the operator's terms.
std::string syntax_hint(const std::string& message, const std::string& text, int line) {
  if (tab_indented(text, line)) return message + " (likely a tab in the indentation: YAML indents with spaces)";
  static const std::pair<const char*, const char*> kHints[] = {
      {YAML::ErrorMsg::MAP_VALUE,
       "a ': ' inside a value, or a key indented under a value: quote the value (\"a: b\") or fix the indentation"},
      {YAML::ErrorMsg::END_OF_MAP, "a line indented out of step with its neighbours: the keys of one map share a column"},
      {YAML::ErrorMsg::END_OF_MAP_FLOW, "a '{' without its '}'"},
      {YAML::ErrorMsg::END_OF_SEQ, "a '- ' item out of line with the other items of its list"},
      {YAML::ErrorMsg::END_OF_SEQ_FLOW, "a '[' without its ']'"},
      {YAML::ErrorMsg::BLOCK_ENTRY, "a '- ' list item where a key: value was expected"},
      {YAML::ErrorMsg::MAP_KEY, "a key where a value was expected"},
      {YAML::ErrorMsg::EOF_IN_SCALAR, "a quote opened and never closed"},
      {YAML::ErrorMsg::UNKNOWN_TOKEN, "a character YAML does not take here ('@' or '`' starting a value: quote it)"},
  };
  for (const auto& [msg, hint] : kHints) {
    if (message == msg) return message + " (likely " + hint + ")";
  }
  return message;
}

// Every section of `document` (a map, or null for none) into `policy`, in the order config/smd.yaml
// documents them; problems go to `diag`.
// `read_files`: also read the files keys name (sm.node_name_map, relative to `source_name`'s folder); off
// for the dry pass that only lists keys.
void read_sections(const YAML::Node& document, const std::string& source_name, bool read_files, Policy& policy,
                   Diagnostics& diag) {
  MapReader top(document, "", YAML::Mark(), diag);
  MapReader sm = top.section("sm");
  read_sm(sm, policy.sm, diag);
  if (read_files) read_node_names(sm, policy.sm, source_name, policy, diag);
  read_routing(top.section("routing"), policy.routing, diag);
  read_lid(top.section("lid"), policy.lid);
  read_mad(top.section("mad"), policy.mad);
  read_log(top.section("log"), policy.log);
  read_control(top.section("control"), policy.control, diag);
  read_metrics(top.section("metrics"), policy.metrics, diag);
  read_security(top.section("security"), policy.security, diag);
  read_ports(top.section("ports"), policy.ports);
  read_roce(top.section("roce"), policy.roce);
  read_sa(top.section("sa"), policy.sa);
  read_perfmgr(top.section("perfmgr"), policy.perfmgr);
  read_health(top.section("health"), policy.health);
  read_multicast(top.section("multicast"), policy.multicast);
  read_congestion_control(top.section("congestion_control"), policy.congestion_control);
  // An absent section keeps default_partitions(); a present one, even empty, is the operator's partitions
  // (OpenSM: a partitions.conf without a Default rule makes the other ports limited members of 0x7fff).
  const bool has_partitions = top.key_mark("partitions").has_value();
  MapReader partitions = top.section("partitions");
  if (has_partitions) read_partitions(std::move(partitions), policy.partitions);
  // After partitions: port groups name partitions by name.
  read_qos(top.section("qos"), policy.partitions, policy.qos);
  // A VL-layered engine may spread its layers over the data VLs switch-to-switch links carry.
  // Layers travel on their VL from the host's port through every switch port, so both port types' max_vls
  // bound them (a CA held to fewer VLs would drop the higher layers' SLs as it sends them).
  policy.routing.options.data_vls =
      policy.qos.enabled ? std::min(policy.qos.switch_external.max_vls, policy.qos.ca.max_vls) : 1;
  top.finish();
}

}  // namespace

Result<Policy> load_policy_string(const std::string& yaml, const std::string& source_name) {
  return load_policy_string(yaml, source_name, nullptr);
}

Result<Policy> load_policy_string(const std::string& yaml, const std::string& source_name,
                                  std::vector<KeyNote>* notes) {
  Diagnostics diag(source_name);
  diag.record_keys(notes);
  // yaml-cpp ends a scalar at a NUL byte and reports a later, unrelated place (or nothing, in a comment).
  if (const std::size_t nul = yaml.find('\0'); nul != std::string::npos) {
    YAML::Mark at;
    at.pos = static_cast<int>(nul);
    const std::size_t line_start = yaml.rfind('\n', nul);
    at.line = static_cast<int>(std::count(yaml.begin(), yaml.begin() + static_cast<std::ptrdiff_t>(nul), '\n'));
    at.column = static_cast<int>(line_start == std::string::npos ? nul : nul - line_start - 1);
    diag.fail(at, "", "a NUL byte (0x00): a policy file is text");
    return diag.error();
  }
  // YAML::LoadAll is not used: on some texts yaml-cpp 0.7's LoadAll never returns (config/yaml_scan.h).
  YamlScan scan;
  YAML::Node document;
  try {
    scan = scan_yaml(yaml);
    if (!scan.problem && scan.documents == 1) document = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    diag.fail(e.mark, "", "YAML syntax error: " + syntax_hint(e.msg, yaml, e.mark.line));
    return diag.error();
  }
  if (scan.problem) {
    diag.fail(scan.problem->mark, "", (scan.problem->syntax ? "YAML syntax error: " : "") + scan.problem->message);
    return diag.error();
  }

  Policy policy;
  policy.source = source_name;
  if (scan.documents == 0 || (scan.documents == 1 && (document.IsNull() || (document.IsMap() && document.size() == 0)))) {
    // Empty, or only comments: every default. Valid, but rarely what someone who wrote a file meant.
    policy.warnings.push_back(source_name + ":1:1: warning: the file sets no key: every value is smd's default");
    if (scan.documents == 0 || !document.IsMap()) return policy;
  }
  if (scan.documents > 1) {
    // A second document would be ignored silently by anything reading only the first; say so instead.
    diag.fail(scan.second_root.value_or(YAML::Mark()), "",
              "a policy is one YAML document; found " + std::to_string(scan.documents));
    return diag.error();
  }

  read_sections(document, source_name, /*read_files=*/true, policy, diag);
  if (!diag.ok()) return diag.error();
  return policy;
}

Result<Policy> load_policy_file(const std::string& path, std::vector<KeyNote>* notes) {
  // Bounded and regular files only: a directory would read as an empty (all defaults) policy, and
  // /dev/zero or a FIFO would never end.
  auto text = read_regular_file(path, kMaxPolicyBytes, "policy file");
  if (!text) return text.error();
  return load_policy_string(*text, path, notes);
}

std::vector<KeyNote> policy_key_values(const Policy& policy) {
  // The readers over an empty document leave every field as it is and note it: the loader's own list of
  // keys, with the values `policy` holds. `partitions` is present (empty) so that its keys are noted too;
  // what the readers write into the copy is thrown away.
  std::vector<KeyNote> notes;
  Policy copy = policy;
  Diagnostics diag("<values>");
  diag.record_keys(&notes);
  read_sections(YAML::Load("partitions: {}"), "<values>", /*read_files=*/false, copy, diag);
  return notes;
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
