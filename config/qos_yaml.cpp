#include "config/qos_yaml.h"

#include <yaml-cpp/yaml.h>

#include <array>
#include <cstdio>

#include "config/qos_section.h"
#include "routing/base/hex_text.h"

namespace smd {

namespace {

std::string range_text(const QosRange& r, int digits) {
  return r.first == r.last ? hex_text(r.first, digits) : hex_text(r.first, digits) + "-" + hex_text(r.last, digits);
}

std::string node_type_name(NodeType t) {
  switch (t) {
    case NodeType::kCa: return "ca";
    case NodeType::kSwitch: return "switch";
    case NodeType::kRouter: return "router";
  }
  return "ca";
}

// Every string double-quoted: names and node descriptions come from the operator's file and may hold
// anything YAML would read otherwise (": ", "#", a leading "*", "true").
void strings(YAML::Emitter& out, const char* key, const std::vector<std::string>& values) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const std::string& v : values) out << YAML::DoubleQuoted << v;
  out << YAML::EndSeq;
}

void ranges(YAML::Emitter& out, const char* key, const std::vector<QosRange>& values, int digits) {
  out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const QosRange& r : values) out << YAML::DoubleQuoted << range_text(r, digits);
  out << YAML::EndSeq;
}

std::string group_item(const QosPortGroup& g) {
  YAML::Emitter out;
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << g.name;
  if (!g.guids.empty()) {
    out << YAML::Key << "guids" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (Guid guid : g.guids) out << hex_text(guid, 16);
    out << YAML::EndSeq;
  }
  if (!g.nodes.empty()) strings(out, "nodes", g.nodes);
  if (!g.partitions.empty()) strings(out, "partitions", g.partitions);
  if (!g.node_types.empty()) {
    out << YAML::Key << "node_types" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (NodeType t : g.node_types) out << node_type_name(t);
    out << YAML::EndSeq;
  }
  if (g.self) out << YAML::Key << "self" << YAML::Value << true;
  out << YAML::EndMap;
  return out.c_str();
}

std::string level_item(const QosLevel& l) {
  YAML::Emitter out;
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << l.name;
  if (l.sl) out << YAML::Key << "sl" << YAML::Value << unsigned(*l.sl);
  if (l.mtu_limit) out << YAML::Key << "mtu_limit" << YAML::Value << (128U << *l.mtu_limit);
  if (l.rate_limit) out << YAML::Key << "rate_limit" << YAML::Value << gbps_of_rate_code(*l.rate_limit);
  if (l.packet_life) out << YAML::Key << "packet_life" << YAML::Value << unsigned(*l.packet_life);
  if (!l.pkeys.empty()) {
    out << YAML::Key << "pkeys" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (std::uint16_t k : l.pkeys) out << hex_text(k, 4);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
  return out.c_str();
}

std::string rule_item(const QosMatchRule& r) {
  YAML::Emitter out;
  out << YAML::Flow << YAML::BeginMap << YAML::Key << "level" << YAML::Value << YAML::DoubleQuoted << r.level;
  if (!r.source.empty()) strings(out, "source", r.source);
  if (!r.destination.empty()) strings(out, "destination", r.destination);
  if (!r.service_ids.empty()) ranges(out, "service_ids", r.service_ids, 16);
  if (!r.pkeys.empty()) ranges(out, "pkeys", r.pkeys, 4);
  out << YAML::EndMap;
  return out.c_str();
}

}  // namespace

std::string gbps_of_rate_code(std::uint8_t code) {
  static constexpr std::array<const char*, 23> kGbps = {"2.5", "10", "30",  "5",   "20",  "40",  "60",  "80",
                                                        "120", "14", "56",  "112", "168", "25",  "100", "200",
                                                        "300", "28", "50",  "400", "600", "800", "1200"};
  for (const char* text : kGbps) {
    if (rate_code_of_gbps(text) == code) return text;
  }
  return "";
}

std::vector<QosYamlKey> qos_list_keys(const QosSpec& spec) {
  std::vector<QosYamlKey> keys;
  auto add = [&](const char* key, const auto& list, auto item) {
    if (list.empty()) return;
    QosYamlKey k{key, {}};
    for (const auto& entry : list) k.items.push_back(item(entry));
    keys.push_back(std::move(k));
  };
  add("port_groups", spec.port_groups, group_item);
  add("levels", spec.levels, level_item);
  add("rules", spec.rules, rule_item);
  return keys;
}

std::string flow_sequence(const QosYamlKey& key) {
  std::string out = "[";
  for (std::size_t i = 0; i < key.items.size(); ++i) out += (i ? ", " : "") + key.items[i];
  return out + "]";
}

}  // namespace smd
