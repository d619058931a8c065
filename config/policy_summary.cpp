#include "config/policy_summary.h"

#include <cstdio>

#include "config/partitions_section.h"
#include "routing/base/hex_text.h"
#include "routing/chain/registry.h"

namespace smd {

namespace {

std::string join_commas(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

/// How the SM port is chosen: by GUID, by CA and/or port number ("mlx5_0/1", "auto/2"), or "auto".
std::string sm_port(const SmPolicy& sm) {
  if (sm.port_guid != 0) return hex64_text(sm.port_guid);
  if (sm.ca.empty() && sm.port == 0) return "auto";
  return (sm.ca.empty() ? "auto" : sm.ca) + "/" + (sm.port == 0 ? "auto" : std::to_string(sm.port));
}

}  // namespace

std::string summarize_policy(const Policy& p) {
  std::string s;
  s += "engines=" + join_commas(p.routing.engines);
  s += " adaptive=" + std::string(p.routing.options.adaptive ? "on" : "off");
  // Each engine says what its own options are ("updn.roots=auto"), in registry order.
  for (const EngineFactory* engine : engine_factories()) {
    for (const OptionSummary& option : engine->summarise(p.routing.options)) {
      s += " " + std::string(engine->section()) + "." + option.key + "=" + option.value;
    }
  }
  s += " repair=" + std::string(repair_mode_name(p.routing.repair));
  s += " lmc=" + std::to_string(p.lid.lmc);
  s += " sm.port=" + sm_port(p.sm);
  s += " priority=" + std::to_string(p.sm.priority);
  // The default key (OpenSM's, 1) is public; any other is a secret and shows only as "set".
  s += " sm_key=" + std::string(p.sm.sm_key == kDefaultSmKey ? "default" : p.sm.sm_key != 0 ? "set" : "unset");
  s += " m_key=" + std::string(p.security.m_key != 0 ? "set" : "unset");
  s += " m_key_protect=" + std::to_string(p.security.m_key_protect);
  s += " subnet_prefix=" + hex64_text(p.sm.subnet_prefix);
  s += " sweep=" + std::to_string(p.sm.sweep_interval_s) + "s";
  s += " max_resweeps=" + std::to_string(p.sm.max_resweeps);
  s += " mad.window=" + std::to_string(p.mad.window);
  s += " mad.timeout=" + std::to_string(p.mad.timeout_ms) + "ms";
  s += " mad.retries=" + std::to_string(p.mad.retries);
  s += " log=" + p.log.level + "@" + (p.log.file.empty() ? "stderr" : p.log.file);
  s += " roce.export=" + std::string(p.roce.export_plan ? "on" : "off");
  s += " roce.frr=" + std::string(p.roce.frr ? "on" : "off");
  s += " sa=" + std::string(p.sa.enabled ? "on" : "off");
  s += " perfmgr=" + (p.perfmgr.enabled ? std::to_string(p.perfmgr.interval_s) + "s" : std::string("off"));
  s += " health=" + std::string(!p.health.enabled ? "off" : p.health.isolate ? "isolate" : "mark");
  // How many partitions, not their P_Keys: a fabric of tenants would make one line of hundreds.
  s += " partitions=" + std::to_string(p.partitions.partitions.size());
  s += " enforcement=" + enforcement_name(p.partitions.enforcement);
  // The data VLs switch links carry (what a VL-layered engine may use) and how much SA matching there is.
  if (p.qos.enabled) {
    s += " qos=on vls=" + std::to_string(p.qos.switch_external.max_vls) +
         " levels=" + std::to_string(p.qos.levels.size()) + " rules=" + std::to_string(p.qos.rules.size());
  } else {
    s += " qos=off";
  }
  // The SM-owned port fields in OpenSM's units (docs/portinfo-fields.md): switch-to-switch/leaf pairs.
  const PortsPolicy& pp = p.ports;
  s += " ports=subnet_timeout:" + std::to_string(pp.subnet_timeout) + ",hoq:" +
       std::to_string(pp.head_of_queue_lifetime) + "/" + std::to_string(pp.leaf_head_of_queue_lifetime) +
       ",vl_stall:" + std::to_string(pp.vl_stall_count) + "/" + std::to_string(pp.leaf_vl_stall_count) +
       ",errors:" + std::to_string(pp.local_phy_errors_threshold) + "/" + std::to_string(pp.overrun_errors_threshold) +
       ",sm_sl:" + std::to_string(pp.sm_sl) + ",life:" + std::to_string(pp.packet_life_time) +
       ",link:" + std::to_string(pp.force_link_width) + "/" + std::to_string(pp.force_link_speed) + "/" +
       std::to_string(pp.force_link_speed_ext);
  // Only with a map, so a policy without one reads as before; the count shows a reload re-read it.
  if (p.node_names) {
    s += " node_name_map=" + p.node_names->source() + "(" + std::to_string(p.node_names->size()) + " names)";
  }
  s += " state_dir=" + p.sm.state_dir;
  return s;
}

}  // namespace smd
