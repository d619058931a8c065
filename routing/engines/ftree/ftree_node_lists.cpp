#include "routing/engines/ftree/ftree_node_lists.h"

#include <string_view>
#include <unordered_set>
#include <utility>

#include "routing/engines/common/routing_order.h"

namespace smd {
namespace {

/// The note for the GUIDs of routing.ftree.<key> that name no routed CA port ("" when none).
std::string unknown_note(std::string_view key, const std::vector<Guid>& listed,
                         const std::unordered_set<Guid>& present) {
  std::vector<Guid> unknown;
  for (Guid g : listed) {
    if (!present.count(g)) unknown.push_back(g);
  }
  return skipped_guids_note("routing.ftree." + std::string(key), "CA port with a LID cabled to a switch", unknown);
}

}  // namespace

Result<ComputeNodeSplit> split_compute_nodes(const Topology& topo, const SwitchGraph& graph,
                                             std::vector<CaDestination> cas, const FtreeOptions& options) {
  ComputeNodeSplit out;
  if (options.cn_guids.empty() && options.io_guids.empty()) {
    out.cns = std::move(cas);
    return out;
  }
  const std::unordered_set<Guid> cn(options.cn_guids.begin(), options.cn_guids.end());
  const std::unordered_set<Guid> io(options.io_guids.begin(), options.io_guids.end());
  std::unordered_set<Guid> present;
  for (const CaDestination& c : cas) {
    const PortNum ca_port = topo.node(graph.node(c.sw)).ports[c.port].peer_port;
    const Guid guid = topo.node(c.node).ports[ca_port].guid;
    present.insert(guid);
    // The CN list is read first, as OpenSM does: a port in both lists is a compute node.
    const bool is_cn = cn.empty() ? !io.count(guid) : cn.count(guid) > 0;
    if (is_cn) {
      out.cns.push_back(c);
    } else {
      const bool is_io = io.count(guid) > 0;
      out.others.push_back(NonCnDestination{c, is_io ? options.max_reverse_hops : 0, is_io});
    }
  }
  for (auto [key, list] : {std::pair{std::string_view("cn_guids"), &options.cn_guids},
                           std::pair{std::string_view("io_guids"), &options.io_guids}}) {
    if (std::string note = unknown_note(key, *list, present); !note.empty()) out.notes.push_back(std::move(note));
  }
  if (out.cns.empty()) {
    return make_error(ErrorCode::kDeclined,
                      options.cn_guids.empty()
                          ? "no compute node: routing.ftree.io_guids lists every CA port of the fabric"
                          : "no compute node: none of the " + std::to_string(options.cn_guids.size()) +
                                " GUIDs of routing.ftree.cn_guids is a CA port with a LID cabled to a switch");
  }
  return out;
}

std::string reverse_hops_note(const NonCnRouting& routing) {
  return "routing.ftree.max_reverse_hops: " + std::to_string(routing.reverse_routes) +
         " switch routes to I/O nodes take down-then-up turns (up to " + std::to_string(routing.max_reverse_hops_used) +
         " each); they leave up*/down*, so ftree no longer promises deadlock freedom";
}

}  // namespace smd
