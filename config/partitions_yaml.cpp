#include "config/partitions_yaml.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>

#include "config/mgid_text.h"
#include "config/partitions_section.h"

namespace smd {

namespace {

std::string hex(unsigned long long value, int digits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%0*llx", digits, value);
  return text;
}

void emit_member(YAML::Emitter& out, const PartitionMember& m) {
  const std::string keyword = member_keyword_name(m.selector);
  if (!m.membership && m.selector != MemberSelector::kNodeDescription) {
    out << (m.selector == MemberSelector::kPortGuid ? hex(m.guid, 16) : keyword);
    return;
  }
  out << YAML::Flow << YAML::BeginMap;
  if (m.selector == MemberSelector::kPortGuid) {
    out << YAML::Key << "guid" << YAML::Value << hex(m.guid, 16);
  } else if (m.selector == MemberSelector::kNodeDescription) {
    out << YAML::Key << "node" << YAML::Value << YAML::DoubleQuoted << m.node_description;
  } else {
    out << YAML::Key << "select" << YAML::Value << keyword;
  }
  if (m.membership) out << YAML::Key << "membership" << YAML::Value << membership_name(*m.membership);
  out << YAML::EndMap;
}

void emit_ipoib(YAML::Emitter& out, const IpoibSpec& b) {
  if (!b.enabled) {
    out << false;
    return;
  }
  out << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "mtu" << YAML::Value << unsigned(b.mtu);
  out << YAML::Key << "rate" << YAML::Value << unsigned(b.rate);
  out << YAML::Key << "sl" << YAML::Value << unsigned(b.sl);
  out << YAML::Key << "scopes" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (std::uint8_t scope : b.scopes) out << unsigned(scope);
  out << YAML::EndSeq;
  out << YAML::Key << "q_key" << YAML::Value << hex(b.q_key, b.q_key > 0xffff ? 8 : 4);
  out << YAML::Key << "tclass" << YAML::Value << unsigned(b.tclass);
  out << YAML::Key << "flow_label" << YAML::Value << b.flow_label;
  out << YAML::EndMap;
}

void emit_group(YAML::Emitter& out, const McastGroupSpec& g) {
  // The scope is the MGID's scope nibble: not written separately (the loader takes it from the MGID).
  out << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "mgid" << YAML::Value << YAML::DoubleQuoted << format_mgid(g.mgid);
  out << YAML::Key << "mtu" << YAML::Value << unsigned(g.mtu);
  out << YAML::Key << "rate" << YAML::Value << unsigned(g.rate);
  out << YAML::Key << "sl" << YAML::Value << unsigned(g.sl);
  out << YAML::Key << "q_key" << YAML::Value << hex(g.q_key, g.q_key > 0xffff ? 8 : 4);
  out << YAML::Key << "tclass" << YAML::Value << unsigned(g.tclass);
  out << YAML::Key << "flow_label" << YAML::Value << g.flow_label;
  out << YAML::EndMap;
}

void emit_partition(YAML::Emitter& out, const PartitionSpec& p) {
  out << YAML::BeginMap;
  // The loader refuses an empty name (a name is what QoS port groups and smctl match): an unnamed
  // partition (OpenSM's "=0x10:ALL;") is written without one.
  if (!p.name.empty()) out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << p.name;
  out << YAML::Key << "pkey" << YAML::Value << hex(p.pkey, 4);
  out << YAML::Key << "default_membership" << YAML::Value << membership_name(p.default_membership);
  out << YAML::Key << "index0" << YAML::Value << p.index0;
  // An empty list reads better as [] on the key's line than as a block sequence of nothing.
  out << YAML::Key << "members" << YAML::Value;
  if (p.members.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const PartitionMember& m : p.members) emit_member(out, m);
  out << YAML::EndSeq;
  out << YAML::Key << "ipoib" << YAML::Value;
  emit_ipoib(out, p.ipoib);
  out << YAML::Key << "groups" << YAML::Value;
  if (p.groups.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const McastGroupSpec& g : p.groups) emit_group(out, g);
  out << YAML::EndSeq;
  out << YAML::EndMap;
}

}  // namespace

std::string partitions_yaml(const PartitionsSpec& spec) {
  YAML::Emitter out;
  out.SetBoolFormat(YAML::TrueFalseBool);
  out.SetBoolFormat(YAML::LowerCase);
  out << YAML::BeginMap << YAML::Key << "partitions" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "enforcement" << YAML::Value << enforcement_name(spec.enforcement);
  out << YAML::Key << "allow_both_pkeys" << YAML::Value << spec.allow_both_pkeys;
  out << YAML::Key << "list" << YAML::Value << YAML::BeginSeq;
  for (const PartitionSpec& p : spec.partitions) emit_partition(out, p);
  out << YAML::EndSeq << YAML::EndMap << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace smd
