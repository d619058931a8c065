#include "routing/qos/sl2vl_plan.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "routing/model/enum_names.h"

namespace smd {

namespace {

constexpr QosPortType kAllTypes[] = {QosPortType::kCa, QosPortType::kRouter, QosPortType::kSwitchPort0,
                                     QosPortType::kSwitchExternal};

// VL 15 is the drop entry (IBA 7.6.6), not a data VL a port must carry.
constexpr std::uint8_t kDropVl = 15;

}  // namespace

const char* to_string(QosPortType type) {
  static constexpr std::pair<QosPortType, const char*> kNames[] = {{QosPortType::kCa, "ca"},
                                                                    {QosPortType::kRouter, "router"},
                                                                    {QosPortType::kSwitchPort0, "switch_port0"},
                                                                    {QosPortType::kSwitchExternal, "switch_external"}};
  return enum_name(type, kNames);
}

QosPortType qos_port_type(NodeType node_type, PortNum out) {
  switch (node_type) {
    case NodeType::kCa: return QosPortType::kCa;
    case NodeType::kRouter: return QosPortType::kRouter;
    case NodeType::kSwitch: break;
  }
  return out == 0 ? QosPortType::kSwitchPort0 : QosPortType::kSwitchExternal;
}

const QosPortSpec& qos_port_spec(const QosSpec& spec, QosPortType type) {
  switch (type) {
    case QosPortType::kCa: return spec.ca;
    case QosPortType::kRouter: return spec.router;
    case QosPortType::kSwitchPort0: return spec.switch_port0;
    case QosPortType::kSwitchExternal: break;
  }
  return spec.switch_external;
}

Sl2VlPlan::Sl2VlPlan(const Topology& topo, const QosSpec& spec, const VlLayering* layering) {
  // Per-hop tables (torus-2QoS) replace the per-type ones wherever the engine set them; they need no
  // layer override.
  if (layering != nullptr) hops_ = layering->hop_sl2vl();
  const unsigned layers = layering != nullptr && !hops_ ? layering->layers() : 1;
  for (QosPortType type : kAllTypes) {
    Sl2Vl& t = tables_[static_cast<std::size_t>(type)];
    t = qos_port_spec(spec, type).sl2vl;
    if (layers <= 1) continue;
    std::string disagreed;
    for (unsigned l = 0; l < layers && l < t.size(); ++l) {
      const auto sl = VlLayering::sl_of_layer(static_cast<std::uint8_t>(l));
      const auto vl = VlLayering::vl_of_layer(static_cast<std::uint8_t>(l));
      if (t[sl] != vl) {
        disagreed += (disagreed.empty() ? "" : ", ") + ("SL " + std::to_string(sl) + " to VL " + std::to_string(t[sl]) +
                                                        " (layer needs VL " + std::to_string(vl) + ")");
      }
      t[sl] = vl;
    }
    if (!disagreed.empty()) {
      warnings_.push_back(std::string(to_string(type)) + ": the policy's sl2vl maps " + disagreed + "; the " +
                          std::to_string(layers) + " routing layers win");
    }
  }

  node_types_.reserve(topo.size());
  for (const Node& n : topo.nodes()) node_types_.push_back(n.type);

  // A port that operates fewer data VLs than an SL's VL drops that SL's packets (IBA 7.6.6: a VL at or
  // above OperationalVLs is discarded). Collected per (node, port type) so a big switch gives one line.
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    std::map<QosPortType, std::pair<std::vector<std::uint8_t>, std::string>> bad;
    for (PortNum p = 1; p <= node.num_ports && p < node.ports.size(); ++p) {
      const Port& port = node.ports[p];
      if (!port.connected() || port.vl_cap == 0) continue;
      const Port& peer = topo.node(port.peer).ports[port.peer_port];
      if (peer.vl_cap == 0) continue;
      const QosPortType type = qos_port_type(node, p);
      const std::uint8_t max_vls = std::max<std::uint8_t>(qos_port_spec(spec, type).max_vls, 1);
      const std::uint8_t data_vls = std::min(data_vls_of_cap(std::min(port.vl_cap, peer.vl_cap)), max_vls);
      // With per-hop tables every in port's table for this out port is checked.
      const bool per_hop = hops_ && hops_->has(n);
      for (PortNum in = 0; in <= (per_hop ? node.num_ports : 0); ++in) {
        const Sl2Vl t = per_hop ? hops_->table(n, in, p) : table_of(type);
        for (std::uint8_t sl = 0; sl < t.size(); ++sl) {
          if (t[sl] == kDropVl || t[sl] < data_vls) continue;
          auto& [sls, reason] = bad[type];
          if (std::find(sls.begin(), sls.end(), sl) != sls.end()) continue;
          sls.push_back(sl);
          if (reason.empty()) {
            reason = "SL " + std::to_string(sl) + " maps to VL " + std::to_string(t[sl]) + " but port " +
                     std::to_string(p) + " operates " + std::to_string(data_vls) +
                     " data VLs: its packets are dropped there";
          }
        }
      }
    }
    for (auto& [type, found] : bad) {
      std::sort(found.first.begin(), found.first.end());
      problems_.push_back({node.guid, type, std::move(found.first), std::move(found.second)});
    }
  }
}

Sl2Vl Sl2VlPlan::table(NodeIndex node, PortNum in, PortNum out) const {
  if (hops_ && hops_->has(node)) return hops_->table(node, in, out);
  if (node >= node_types_.size()) return tables_[static_cast<std::size_t>(QosPortType::kCa)];
  return table_of(qos_port_type(node_types_[node], out));
}

namespace {

// "8-14" or "1, 3, 5-6": ascending SLs with runs folded.
std::string sl_list(const std::vector<std::uint8_t>& sls) {
  std::string text;
  for (std::size_t i = 0; i < sls.size();) {
    std::size_t j = i;
    while (j + 1 < sls.size() && sls[j + 1] == sls[j] + 1) ++j;
    if (!text.empty()) text += ", ";
    text += std::to_string(sls[i]);
    if (j > i) text += "-" + std::to_string(sls[j]);
    i = j + 1;
  }
  return text;
}

}  // namespace

std::vector<std::string> summarize_problems(const std::vector<Sl2VlProblem>& problems) {
  struct Group {
    QosPortType type;
    std::vector<std::uint8_t> sls;
    std::size_t nodes = 0;
    const Sl2VlProblem* first = nullptr;
  };
  std::vector<Group> groups;
  for (const Sl2VlProblem& p : problems) {
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.type == p.type && g.sls == p.sls; });
    if (it == groups.end()) {
      groups.push_back({p.type, p.sls, 0, &p});
      it = std::prev(groups.end());
    }
    ++it->nodes;
  }
  std::vector<std::string> lines;
  for (const Group& g : groups) {
    lines.push_back(std::string(to_string(g.type)) + " ports of " + std::to_string(g.nodes) +
                    (g.nodes == 1 ? " node" : " nodes") + " drop " + (g.sls.size() == 1 ? "SL " : "SLs ") +
                    sl_list(g.sls) + " (e.g. " + format_guid(g.first->node_guid) + ": " + g.first->reason + ")");
  }
  return lines;
}

}  // namespace smd
