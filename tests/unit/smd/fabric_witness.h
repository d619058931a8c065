// What two Topology snapshots are compared by in the incremental-sweep tests: node GUIDs and cables by
// (GUID, port) at both ends. Independent of node numbering, so an incremental sweep's result and a
// full discovery of the same fake fabric can be compared directly. And where the directed paths a
// result keeps lead, asked of the fabric itself by NodeInfo.
#pragma once

#include <functional>
#include <set>
#include <tuple>
#include <vector>

#include "mad/codec/dr_path.h"
#include "mad/codec/node_info.h"
#include "mad/transport/smp_batch.h"
#include "routing/model/topology.h"
#include "smd/fabric/observed.h"

namespace smd::test {

/// One cable as (GUID, port, GUID, port), the lower (GUID, port) end first.
using Cable = std::tuple<Guid, PortNum, Guid, PortNum>;

/// Every cable of `t` once.
inline std::set<Cable> cables(const Topology& t) {
  std::set<Cable> out;
  for (const Node& node : t.nodes()) {
    for (const Port& p : node.ports) {
      if (!p.connected()) continue;
      Cable c{node.guid, p.num, t.node(p.peer).guid, p.peer_port};
      if (std::tie(std::get<2>(c), std::get<3>(c)) < std::tie(std::get<0>(c), std::get<1>(c))) {
        c = {std::get<2>(c), std::get<3>(c), std::get<0>(c), std::get<1>(c)};
      }
      out.insert(c);
    }
  }
  return out;
}

/// Every node GUID of `t`.
inline std::set<Guid> guids(const Topology& t) {
  std::set<Guid> out;
  for (const Node& node : t.nodes()) out.insert(node.guid);
  return out;
}

/// A directed path a discovery result keeps: a node's own (`port` 0), or the one to a CA's port `port`.
struct KeptPath {
  NodeIndex node = kNoNode;
  mad::DrPath path;
  PortNum port = 0;
};

/// NodeInfo over every directed path `got` keeps (each node's own; a CA's cabled ports but the SM's own),
/// each answer handed to `check` inside batch.wait(), in the order the paths are listed.
inline void probe_kept_paths(SmpBatch& batch, const ObservedFabric& got,
                             const std::function<void(const KeptPath&, const mad::SmpReply&)>& check) {
  const Topology& t = *got.topo;
  std::vector<KeptPath> kept;  // complete before the first submit: callbacks refer to its elements
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    kept.push_back({n, mad::DrPath(node.dr_path), 0});
    if (node.is_switch()) continue;
    for (const Port& p : node.ports) {
      if (p.connected() && !(n == t.sm_node && p.num == t.sm_port)) kept.push_back({n, got.port_path(n, p.num), p.num});
    }
  }
  for (const KeptPath& k : kept) {
    mad::SmpRequest req;
    req.path = k.path;
    req.attr_id = mad::attr::kNodeInfo;
    batch.submit(req, [&check, &k](const mad::SmpReply& r) { check(k, r); });
  }
  batch.wait();
}

}  // namespace smd::test
