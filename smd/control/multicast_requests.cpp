#include "smd/control/multicast_requests.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace smd::control {

namespace {

constexpr PKey kBase = 0x7FFF;

const char* to_string(PartitionEnforcement e) {
  switch (e) {
    case PartitionEnforcement::kBoth: return "both";
    case PartitionEnforcement::kIn: return "in";
    case PartitionEnforcement::kOut: return "out";
    case PartitionEnforcement::kOff: return "off";
  }
  return "?";
}

std::string hex16(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", v & 0xFFFFu);
  return buf;
}

/// Port GUID -> "name" (CA: the node's display name and port; switch: its display name).
std::unordered_map<Guid, std::string> port_names(const Topology& topo, const NodeNames& display) {
  std::unordered_map<Guid, std::string> names;
  for (const Node& node : topo.nodes()) {
    if (node.is_switch()) {
      names.emplace(node.ports[0].guid, display.of(node));
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      names.emplace(node.ports[p].guid, display.port(node, p));
    }
  }
  return names;
}

/// Full and limited members of `base` in the plan (a port with both entries counts in both).
void count_members(const PartitionPlan& plan, PKey base, unsigned& full, unsigned& limited) {
  full = limited = 0;
  for (const auto& [guid, keys] : plan.members) {
    bool f = false, l = false;
    for (PKey k : keys) {
      if ((k & kBase) != base) continue;
      (k & kPKeyFullBit ? f : l) = true;
    }
    full += f ? 1 : 0;
    limited += l ? 1 : 0;
  }
}

}  // namespace

std::string format_gid(const std::array<std::uint8_t, 16>& gid) {
  char buf[INET6_ADDRSTRLEN];
  if (inet_ntop(AF_INET6, gid.data(), buf, sizeof buf) == nullptr) return "?";
  return buf;
}

Result<Json> partitions_json(const FabricSnapshot& snap, const std::string& pkey) {
  Json out = Json::object();
  if (!snap.partition_policy) return Error{ErrorCode::kInvalidInput, "the daemon has no partition policy yet"};
  const PartitionsSpec& spec = *snap.partition_policy;
  out["enforcement"] = to_string(spec.enforcement);
  out["allow_both_pkeys"] = spec.allow_both_pkeys;
  out["planned"] = snap.partitions != nullptr;
  const PartitionsSpec effective = with_default_partition(spec);
  const PartitionSpec* picked = nullptr;
  if (!pkey.empty()) {
    // "0x" and hex digits only: "0x7fffzz" names no P_Key (strtoul alone would read 0x7fff).
    unsigned long want = 0x10000;
    if (pkey.rfind("0x", 0) == 0 && pkey.size() > 2 && pkey.size() <= 6 &&
        pkey.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos) {
      want = std::strtoul(pkey.c_str(), nullptr, 16);
    }
    for (const PartitionSpec& p : effective.partitions) {
      if (p.name == pkey || (want <= 0xFFFF && (want & kBase) == p.pkey)) picked = &p;
    }
    if (!picked) return Error{ErrorCode::kInvalidInput, "no partition '" + pkey + "' in the policy"};
  }
  const std::unordered_map<Guid, std::string> names =
      snap.topo ? port_names(*snap.topo, snap.names) : std::unordered_map<Guid, std::string>{};
  Json list = Json::array();
  for (const PartitionSpec& p : effective.partitions) {
    if (picked && picked != &p) continue;
    Json j = {{"name", p.name},
              {"pkey", hex16(p.pkey)},
              {"ipoib", p.ipoib.enabled},
              {"index0", p.index0},
              {"where", p.where}};
    if (snap.partitions) {
      unsigned full = 0, limited = 0;
      count_members(*snap.partitions, p.pkey, full, limited);
      j["full"] = full;
      j["limited"] = limited;
    }
    if (picked && snap.partitions) {
      Json members = Json::array();
      for (const auto& [guid, keys] : snap.partitions->members) {
        bool f = false, l = false;
        for (PKey k : keys) {
          if ((k & kBase) == p.pkey) (k & kPKeyFullBit ? f : l) = true;
        }
        if (!f && !l) continue;
        auto it = names.find(guid);
        members.push_back({{"guid", format_guid(guid)},
                           {"description", it == names.end() ? "" : it->second},
                           {"membership", f && l ? "both"
                                          : f    ? "full"
                                                 : "limited"}});
      }
      std::sort(members.begin(), members.end(), [](const Json& a, const Json& b) {
        return a.at("guid").get<std::string>() < b.at("guid").get<std::string>();
      });
      j["members"] = std::move(members);
    }
    list.push_back(std::move(j));
  }
  out["partitions"] = std::move(list);
  Json problems = Json::array();
  if (snap.partitions) {
    for (const PartitionProblem& pr : snap.partitions->problems) {
      problems.push_back({{"guid", format_guid(pr.node_guid)}, {"port", pr.port}, {"reason", pr.reason}});
    }
  }
  out["problems"] = std::move(problems);
  return out;
}

Json groups_json(const FabricSnapshot& snap) {
  Json list = Json::array();
  for (const McastGroupView& g : snap.groups) {
    list.push_back({{"mgid", format_gid(g.mgid)},
                    {"mlid", hex16(g.mlid)},
                    {"members", g.members},
                    {"full", g.full},
                    {"non_member", g.non_member},
                    {"send_only", g.send_only},
                    {"root", g.root ? format_guid(g.root) : ""},
                    {"tree_switches", g.tree_switches},
                    {"programmed", g.programmed}});
  }
  return list;
}

}  // namespace smd::control
