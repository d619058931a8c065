#include "routing/verify/sl2vl_verify.h"

#include <optional>
#include <string>
#include <vector>

#include "routing/base/hex_text.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"

namespace smd {
namespace {

/// A CA or router port that injects packets at a switch: the switch port it is cabled to and itself.
struct Source {
  PortNum switch_port;
  NodeIndex node;
  PortNum port;
};

class Sl2VlChecker {
 public:
  Sl2VlChecker(const Topology& topo, const Sl2VlLookup& sl2vl) : topo_(topo), sl2vl_(sl2vl) {}

  /// Check one hop: packets on `sl` entering `node` on `in` and leaving on `out` must get `vl`.
  void hop(NodeIndex node, PortNum in, PortNum out, std::uint8_t sl, std::uint8_t vl, NodeIndex src, Lid dlid) {
    const std::uint8_t got = sl2vl_.table(node, in, out)[sl & 15];
    if (got == vl) return;
    ++mismatches_;
    if (first_) return;
    const Node& n = topo_.node(node);
    const char* kind = n.is_switch() ? "switch " : (n.type == NodeType::kCa ? "CA " : "router ");
    first_ = kind + format_guid(n.guid) + " \"" + n.description + "\" (DR " + format_dr_path(n.dr_path) + ") in port " +
             std::to_string(in) + " out port " + std::to_string(out) + " maps SL " + std::to_string(sl) + " to VL " +
             std::to_string(got) + " but the route's layer needs VL " + std::to_string(vl) + " (route from switch " +
             format_guid(topo_.node(src).guid) + " to LID " + hex_text(dlid, 4) + ")";
  }

  std::uint64_t mismatches() const { return mismatches_; }
  const std::optional<std::string>& first() const { return first_; }

 private:
  const Topology& topo_;
  const Sl2VlLookup& sl2vl_;
  std::uint64_t mismatches_ = 0;
  std::optional<std::string> first_;
};

}  // namespace

Status verify_sl2vl_layers(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                           const Sl2VlLookup& sl2vl) {
  if (!tables.layering) return Ok{};
  const VlLayering& layering = *tables.layering;
  const SwitchGraph graph = SwitchGraph::build(topo);
  const SwitchLfts lft(graph, tables);
  const std::vector<LidTarget> targets = lid_targets(topo, graph, lids);

  std::vector<std::vector<Source>> sources(graph.num_switches());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (PortNum p = 1; p <= graph.num_ports(s); ++p) {
      const NodeIndex peer = graph.peer_node(s, p);
      if (peer == kNoNode || graph.peer_switch(s, p) != kNoSwitch || topo.node(peer).is_switch()) continue;
      const PortNum peer_port = graph.peer_port(s, p);
      if (lids.base_lid(peer, peer_port) == 0) continue;
      sources[s].push_back(Source{p, peer, peer_port});
    }
  }

  Sl2VlChecker check(topo, sl2vl);
  for (SwitchIndex src = 0; src < graph.num_switches(); ++src) {
    const NodeIndex src_node = graph.node(src);
    for (std::size_t l = 1; l < targets.size(); ++l) {
      const LidTarget& t = targets[l];
      if (t.sw == kNoSwitch) continue;
      const auto dlid = static_cast<Lid>(l);
      if (t.sw == src && t.port == 0) continue;  // the switch's own LID: the packet never leaves it
      const std::uint8_t layer = layering.layer_of(src_node, dlid);
      const std::uint8_t sl = VlLayering::sl_of_layer(layer);
      // The VL the route needs at a hop: its layer's, or the engine's per-hop table (torus-2QoS).
      const auto need = [&](NodeIndex node, PortNum in, PortNum out) { return layering.vl_at(node, in, out, layer); };
      const auto owner = lids.owner(dlid);
      // A walk first, so that a route the LFTs lose is skipped whole rather than half checked.
      const LftWalkEnd end = walk_lft(
          graph, src, t, [&](SwitchIndex x) { return lft.out_port(x, dlid); }, [](SwitchIndex, PortNum) {});
      if (!end.delivered()) continue;
      SwitchIndex prev = kNoSwitch;
      PortNum prev_port = 0;
      walk_lft(
          graph, src, t, [&](SwitchIndex x) { return lft.out_port(x, dlid); },
          [&](SwitchIndex x, PortNum p) {
            const NodeIndex node = graph.node(x);
            if (p == 0) return;  // delivery to the switch itself
            if (prev == kNoSwitch) {
              check.hop(node, 0, p, sl, need(node, 0, p), src_node, dlid);
              for (const Source& c : sources[src]) {
                if (owner && owner->node == c.node && owner->port == c.port) continue;
                check.hop(c.node, 0, c.port, sl, need(c.node, 0, c.port), src_node, dlid);
                check.hop(node, c.switch_port, p, sl, need(node, c.switch_port, p), src_node, dlid);
              }
            } else {
              const PortNum in = graph.peer_port(prev, prev_port);
              check.hop(node, in, p, sl, need(node, in, p), src_node, dlid);
            }
            prev = x;
            prev_port = p;
          });
    }
  }
  if (check.first()) {
    return make_error(ErrorCode::kVerifyFailed, "SL2VL does not keep the routing layers apart: " + *check.first() +
                                                    "; " + std::to_string(check.mismatches()) +
                                                    " mismatching hops in all");
  }
  return Ok{};
}

}  // namespace smd
