#include "config/partitions_section.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "config/mgid_text.h"
#include "routing/base/hex_text.h"

namespace smd {

namespace {

/// "file:line:column" (1-based) of a yaml-cpp mark: what PartitionSpec::where and friends hold.
std::string where_of(const Diagnostics& diag, const YAML::Mark& mark) {
  return diag.source() + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

void read_membership(MapReader& map, std::string_view key, std::optional<Membership>& out) {
  std::string text;
  map.read_choice(key, membership_names(), text);
  if (text.empty()) return;
  for (Membership m : {Membership::kLimited, Membership::kFull, Membership::kBoth}) {
    if (membership_name(m) == text) out = m;
  }
}

// One entry of `members`: a keyword or a GUID as a scalar, or a map naming one selector and a membership.
std::optional<PartitionMember> read_member(const YAML::Node& item, const YAML::Mark& mark, const std::string& path,
                                           Diagnostics& diag) {
  PartitionMember member;
  member.where = where_of(diag, mark);
  const auto& keywords = member_keyword_names();
  if (item.IsScalar()) {
    const std::string& text = item.Scalar();
    if (std::find(keywords.begin(), keywords.end(), text) != keywords.end()) {
      member.selector = member_keyword(text);
      return member;
    }
    Result<std::uint64_t> guid = parse_unsigned(text);
    if (!guid.ok() || *guid == 0) {
      diag.fail(mark, path,
                "'" + text + "' is neither a port GUID nor one of ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF");
      return std::nullopt;
    }
    member.selector = MemberSelector::kPortGuid;
    member.guid = *guid;
    return member;
  }
  if (!item.IsMap()) {
    diag.fail(mark, path, "expected a member (a keyword, a GUID or a map), got " + describe_kind(item));
    return std::nullopt;
  }
  const std::size_t before = diag.failures();
  MapReader map(item, path, mark, diag);
  std::uint64_t guid = 0;
  std::string node;
  std::string select;
  map.read_u64("guid", guid);
  map.read_string("node", node, /*non_empty=*/true);
  map.read_choice("select", keywords, select);
  read_membership(map, "membership", member.membership);
  map.finish();
  const int selectors = int(map.key_mark("guid").has_value()) + int(map.key_mark("node").has_value()) +
                        int(map.key_mark("select").has_value());
  if (selectors != 1 && diag.failures() == before) {
    diag.fail(mark, path,
              selectors == 0 ? "names no port: give one of guid, node, select"
                             : "names its ports twice: give only one of guid, node, select");
  }
  if (map.key_mark("guid") && guid == 0 && diag.failures() == before) {
    diag.fail(*map.value_mark_of("guid"), path + ".guid", "GUID 0 is not a valid port or node GUID");
  }
  if (diag.failures() != before) return std::nullopt;
  if (map.key_mark("guid")) {
    member.selector = MemberSelector::kPortGuid;
    member.guid = guid;
  } else if (map.key_mark("node")) {
    member.selector = MemberSelector::kNodeDescription;
    member.node_description = node;
  } else {
    member.selector = member_keyword(select);
  }
  return member;
}

void read_members(MapReader& partition, std::vector<PartitionMember>& out) {
  for_each_item(partition, "members", "members",
                [&](const YAML::Node& item, const YAML::Mark& mark, const std::string& path) {
                  if (auto member = read_member(item, mark, path, partition.diagnostics())) {
                    out.push_back(std::move(*member));
                  }
                });
}

// `scopes`: a non-empty sequence of distinct scope nibbles 1..15.
void read_scopes(MapReader& map, std::vector<std::uint8_t>& out) {
  std::optional<MapReader::Raw> raw = map.read_raw("scopes");
  if (!raw) return;
  Diagnostics& diag = map.diagnostics();
  if (!raw->node.IsSequence() || raw->node.size() == 0) {
    diag.fail(raw->mark, raw->path,
              "expected a non-empty sequence of scopes (1..15), got " +
                  (raw->node.IsSequence() ? std::string("[]") : describe_kind(raw->node)));
    return;
  }
  std::vector<std::uint8_t> scopes;
  for (std::size_t i = 0; i < raw->node.size(); ++i) {
    const YAML::Node item = raw->node[i];
    const YAML::Mark mark = item_mark(item, raw->mark);
    const std::string path = raw->path + "[" + std::to_string(i) + "]";
    std::optional<std::uint64_t> value;
    if (item.IsScalar()) {
      if (Result<std::uint64_t> parsed = parse_unsigned(item.Scalar()); parsed.ok()) value = *parsed;
    }
    if (!value || *value < 1 || *value > 15) {
      diag.fail(mark, path,
                "expected a scope 1..15 (2 = link-local), got " +
                    (item.IsScalar() ? "'" + item.Scalar() + "'" : describe_kind(item)));
      return;
    }
    if (std::find(scopes.begin(), scopes.end(), *value) != scopes.end()) {
      diag.fail(mark, path, item.Scalar() + " is listed twice");
      return;
    }
    scopes.push_back(static_cast<std::uint8_t>(*value));
  }
  out = std::move(scopes);
}

// `ipoib`: true/false, or a map of the broadcast group's components (which turns IPoIB on).
void read_ipoib(MapReader& partition, IpoibSpec& out) {
  std::optional<MapReader::Raw> raw = partition.read_raw("ipoib");
  if (!raw) return;
  Diagnostics& diag = partition.diagnostics();
  if (raw->node.IsScalar()) {
    const std::string& text = raw->node.Scalar();
    if (text == "true" || text == "True" || text == "TRUE") {
      out.enabled = true;
    } else if (text == "false" || text == "False" || text == "FALSE") {
      out.enabled = false;
    } else {
      diag.fail(raw->mark, raw->path, "expected true, false or a map of the broadcast group, got '" + text + "'");
    }
    return;
  }
  if (!raw->node.IsMap()) {
    diag.fail(raw->mark, raw->path,
              "expected true, false or a map of the broadcast group, got " + describe_kind(raw->node));
    return;
  }
  MapReader map(raw->node, raw->path, raw->mark, diag);
  out.enabled = true;
  read_narrow(map, "mtu", 1, 5, out.mtu);
  read_narrow(map, "rate", 2, 24, out.rate);  // IBA rate codes 2..24 (2.5 to 1200 Gb/s)
  read_narrow(map, "sl", 0, 15, out.sl);
  read_scopes(map, out.scopes);
  read_narrow(map, "q_key", 0, 0xffffffffULL, out.q_key);
  read_narrow(map, "tclass", 0, 255, out.tclass);
  read_narrow(map, "flow_label", 0, 0xfffff, out.flow_label);
  map.finish();
}

void read_groups(MapReader& partition, PKeyBase pkey, std::vector<McastGroupSpec>& out) {
  Diagnostics& diag = partition.diagnostics();
  for_each_item(partition, "groups", "groups",
                [&](const YAML::Node& item, const YAML::Mark& mark, const std::string& path) {
                  if (!item.IsMap()) {
                    diag.fail(mark, path, "expected a map with mgid, got " + describe_kind(item));
                    return;
                  }
                  const std::size_t before = diag.failures();
                  MapReader map(item, path, mark, diag);
                  McastGroupSpec group;
                  group.where = where_of(diag, mark);
                  std::string mgid_text;
                  map.read_string("mgid", mgid_text);
                  read_narrow(map, "mtu", 1, 5, group.mtu);
                  read_narrow(map, "rate", 2, 24, group.rate);
                  read_narrow(map, "sl", 0, 15, group.sl);
                  std::optional<std::uint32_t> q_key;
                  std::uint32_t q_key_value = 0;
                  read_narrow(map, "q_key", 0, 0xffffffffULL, q_key_value);
                  if (map.key_mark("q_key")) q_key = q_key_value;
                  read_narrow(map, "tclass", 0, 255, group.tclass);
                  read_narrow(map, "flow_label", 0, 0xfffff, group.flow_label);
                  map.finish();
                  if (!map.key_mark("mgid")) {
                    diag.fail(mark, path + ".mgid", "missing: every group needs its MGID (ff12:401b::1)");
                    return;
                  }
                  if (diag.failures() != before) return;
                  Result<Mgid> mgid = parse_mgid(mgid_text);
                  if (!mgid.ok()) {
                    diag.fail(*map.value_mark_of("mgid"), path + ".mgid", mgid.error().message);
                    return;
                  }
                  group.mgid = *mgid;
                  group.q_key = q_key.value_or(default_group_q_key(group.mgid));
                  if (Status done = complete_group(group, pkey); !done.ok()) {
                    diag.fail(*map.value_mark_of("mgid"), path + ".mgid", done.error().message);
                    return;
                  }
                  out.push_back(std::move(group));
                });
}

std::optional<PartitionSpec> read_partition(const YAML::Node& item, const YAML::Mark& mark, const std::string& path,
                                            Diagnostics& diag) {
  if (!item.IsMap()) {
    diag.fail(mark, path, "expected a partition (a map with pkey), got " + describe_kind(item));
    return std::nullopt;
  }
  const std::size_t before = diag.failures();
  MapReader map(item, path, mark, diag);
  PartitionSpec p;
  p.where = where_of(diag, mark);
  map.read_string("name", p.name, /*non_empty=*/true);  // named by QoS port groups and smctl
  if (!partition_name_printable(p.name))
    diag.fail(*map.value_mark_of("name"), path + ".name",
              "a partition name holds no control characters (logs and smctl print it)");
  std::uint64_t pkey = 0;
  map.read_u64("pkey", pkey);
  const bool pkey_read = diag.failures() == before;
  std::optional<Membership> membership;
  read_membership(map, "default_membership", membership);
  p.default_membership = membership.value_or(Membership::kLimited);
  map.read_bool("index0", p.index0);
  read_members(map, p.members);
  read_ipoib(map, p.ipoib);
  if (!map.key_mark("pkey")) {
    diag.fail(mark, path + ".pkey", "missing: every partition needs its 15-bit P_Key (0x0001..0x7fff)");
  } else if (pkey_read && (pkey == 0 || pkey > 0x7fff)) {
    diag.fail(*map.value_mark_of("pkey"), path + ".pkey",
              item["pkey"].Scalar() +
                  " is out of range 0x0001..0x7fff (a P_Key base has 15 bits; membership sets "
                  "bit 15)");
  }
  p.pkey = static_cast<PKeyBase>(pkey & 0x7fff);
  read_groups(map, p.pkey, p.groups);
  map.finish();
  if (diag.failures() != before) return std::nullopt;
  return p;
}

}  // namespace

const std::vector<std::string>& enforcement_names() {
  static const std::vector<std::string> names = {"both", "in", "out", "off"};
  return names;
}

const std::vector<std::string>& membership_names() {
  static const std::vector<std::string> names = {"limited", "full", "both"};
  return names;
}

std::string enforcement_name(PartitionEnforcement enforcement) {
  return enforcement_names()[static_cast<std::size_t>(enforcement)];
}

std::string membership_name(Membership membership) { return membership_names()[static_cast<std::size_t>(membership)]; }

const std::vector<std::string>& member_keyword_names() {
  static const std::vector<std::string> names = {"ALL", "ALL_CAS", "ALL_SWITCHES", "ALL_ROUTERS", "SELF"};
  return names;
}

MemberSelector member_keyword(const std::string& name) {
  if (name == "ALL_CAS") return MemberSelector::kAllCas;
  if (name == "ALL_SWITCHES") return MemberSelector::kAllSwitches;
  if (name == "ALL_ROUTERS") return MemberSelector::kAllRouters;
  if (name == "SELF") return MemberSelector::kSelf;
  return MemberSelector::kAll;
}

std::string member_keyword_name(MemberSelector selector) {
  switch (selector) {
    case MemberSelector::kAll: return "ALL";
    case MemberSelector::kAllCas: return "ALL_CAS";
    case MemberSelector::kAllSwitches: return "ALL_SWITCHES";
    case MemberSelector::kAllRouters: return "ALL_ROUTERS";
    case MemberSelector::kSelf: return "SELF";
    case MemberSelector::kPortGuid:
    case MemberSelector::kNodeDescription: return "";
  }
  return "";
}

bool partition_name_printable(std::string_view name) {
  return std::none_of(name.begin(), name.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

void read_partitions(MapReader partitions, PartitionsSpec& out) {
  Diagnostics& diag = partitions.diagnostics();
  PartitionsSpec spec;
  std::string enforcement = enforcement_name(spec.enforcement);
  partitions.read_choice("enforcement", enforcement_names(), enforcement);
  for (std::size_t i = 0; i < enforcement_names().size(); ++i) {
    if (enforcement_names()[i] == enforcement) spec.enforcement = static_cast<PartitionEnforcement>(i);
  }
  partitions.read_bool("allow_both_pkeys", spec.allow_both_pkeys);
  if (std::optional<MapReader::Raw> raw = partitions.read_raw("list"); raw) {
    if (!raw->node.IsSequence()) {
      diag.fail(raw->mark, raw->path, "expected a sequence of partitions, got " + describe_kind(raw->node));
    } else {
      std::unordered_map<PKeyBase, std::size_t> first_at;     // P_Key -> its partition's index in `list`
      std::unordered_map<std::string, std::size_t> named_at;  // name -> the same, for names given
      std::map<Mgid, std::size_t> group_at;                   // a group's MGID -> the same
      for (std::size_t i = 0; i < raw->node.size(); ++i) {
        const YAML::Node item = raw->node[i];
        const YAML::Mark mark = item_mark(item, raw->mark);
        const std::string path = raw->path + "[" + std::to_string(i) + "]";
        std::optional<PartitionSpec> p = read_partition(item, mark, path, diag);
        if (!p) continue;
        auto [same, fresh] = first_at.try_emplace(p->pkey, i);
        if (!fresh) {
          diag.fail(item["pkey"].Mark(), path + ".pkey",
                    "P_Key " + hex_text(p->pkey, 4) + " is already partition [" + std::to_string(same->second) +
                        "]; write one entry per P_Key");
          continue;
        }
        // QoS port groups and smctl name partitions by name: two with one name would both match.
        if (!p->name.empty()) {
          if (auto [twin, unique] = named_at.try_emplace(p->name, i); !unique) {
            diag.fail(item["name"].Mark(), path + ".name",
                      "'" + p->name + "' is already the name of partition [" + std::to_string(twin->second) +
                          "]; partition names are unique");
            continue;
          }
        }
        // A group belongs to one partition (its P_Key, Q_Key, members): a second declaration would win
        // silently over the first.
        bool clash = false;
        for (std::size_t j = 0; j < p->groups.size(); ++j) {
          if (auto [other, unique] = group_at.try_emplace(p->groups[j].mgid, i); !unique) {
            diag.fail(item["groups"][j]["mgid"].Mark(), path + ".groups[" + std::to_string(j) + "].mgid",
                      "MGID " + format_mgid(p->groups[j].mgid) + " is already a group of partition [" +
                          std::to_string(other->second) + "]; a group belongs to one partition");
            clash = true;
          }
        }
        if (clash) continue;
        spec.partitions.push_back(std::move(*p));
      }
    }
  }
  partitions.finish();
  out = with_default_partition(std::move(spec));
}

}  // namespace smd
