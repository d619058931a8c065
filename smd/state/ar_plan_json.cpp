#include "smd/state/ar_plan_json.h"

#include <algorithm>
#include <cstdio>

#include "routing/model/topology.h"
#include "smd/state/atomic_file.h"

namespace smd {
namespace {}  // namespace

Result<nlohmann::ordered_json> ar_plan_to_json(const Topology& topo, const RoutingTables& tables) {
  if (!tables.adaptive) {
    return make_error(ErrorCode::kInvalidInput, "engine " + tables.engine + " produced no adaptive-routing plan");
  }
  const AdaptivePlan& plan = *tables.adaptive;
  nlohmann::ordered_json j;
  j["engine"] = tables.engine;
  std::size_t max_lid = 0;
  for (const auto& row : plan.group_of) max_lid = std::max(max_lid, row.empty() ? 0 : row.size() - 1);
  j["max_lid"] = max_lid;
  auto groups = nlohmann::ordered_json::array();
  for (const auto& g : plan.groups) {
    auto ports = nlohmann::ordered_json::array();
    for (PortNum p : g) ports.push_back(static_cast<unsigned>(p));
    groups.push_back(std::move(ports));
  }
  j["groups"] = std::move(groups);
  auto switches = nlohmann::ordered_json::array();
  for (NodeIndex n : topo.switches()) {
    const Node& node = topo.node(n);
    nlohmann::ordered_json sw;
    sw["guid"] = format_guid(node.guid);
    sw["description"] = node.description;
    sw["dr_path"] = format_dr_path(node.dr_path);
    auto group_of = nlohmann::ordered_json::array();
    if (n < plan.group_of.size()) {
      for (std::uint32_t id : plan.group_of[n]) {
        if (id == kNoArGroup) {
          group_of.push_back(nullptr);
        } else {
          group_of.push_back(id);
        }
      }
    }
    sw["group_of"] = std::move(group_of);
    switches.push_back(std::move(sw));
  }
  j["switches"] = std::move(switches);
  return j;
}

Status write_ar_plan_file(const std::string& path, const Topology& topo, const RoutingTables& tables) {
  auto json = ar_plan_to_json(topo, tables);
  if (!json) return json.error();
  // Descriptions come from the fabric: bytes that are not UTF-8 are replaced, never thrown.
  return write_file_atomic(path, json->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace smd
