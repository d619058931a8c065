#include "smd/sweep/discovery.h"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "mad/codec/node_description.h"
#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "smd/program/smp_failure.h"
#include "smd/sweep/discovery_vet.h"

namespace smd {

namespace {

// A node while the sweep is still running: mutable, indexed in discovery order.
struct WorkNode {
  Node node;
  mad::DrPath path;
  NodeRecord rec;              // what this node's SMA (and each port's, for a CA) reported
  std::vector<bool> probed;    // NodeInfo already sent out of this port
  std::vector<bool> disputed;  // claimed by two cables that disagree: never cabled again in this sweep
};

// One attribute a finished sweep lacks; resume_discovery() asks for exactly these.
struct Gap {
  enum class Kind : std::uint8_t { kNodeDescription, kSwitchInfo, kPortInfo, kNodeInfo } kind;
  NodeIndex node;
  PortNum port;  // kPortInfo: the port read; kNodeInfo: the port probed out of
};

// A directed-route SMP leaves a switch by any port, a CA only when it is the SM's own node.
bool expandable(const Node& node, bool is_sm_node, PortNum port) { return node.is_switch() ? port != 0 : is_sm_node; }

// Every port that should have been read: all of a switch's, the ports of a CA that answered NodeInfo.
bool should_read_port(const Node& node, PortNum port) {
  return node.is_switch() || (port != 0 && node.ports[port].guid != 0);
}

std::vector<Gap> find_gaps(const ObservedFabric& d) {
  std::vector<Gap> gaps;
  if (!d.topo) return gaps;
  const Topology& topo = *d.topo;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    const NodeRecord& rec = d.nodes[n];
    if (!rec.description_read) gaps.push_back({Gap::Kind::kNodeDescription, n, 0});
    if (node.is_switch() && !rec.switch_info) gaps.push_back({Gap::Kind::kSwitchInfo, n, 0});
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      if (!should_read_port(node, p)) continue;
      const mad::PortInfo* pi = d.port_info(n, p);
      if (pi == nullptr) {
        gaps.push_back({Gap::Kind::kPortInfo, n, p});
        continue;
      }
      // A live port whose far end is unknown: its NodeInfo failed (or was not believed) last time.
      const auto state = pi->port_state;
      const bool live = state >= static_cast<std::uint8_t>(PortState::kInit);
      if (live && expandable(node, n == topo.sm_node, p) && !node.ports[p].connected()) {
        gaps.push_back({Gap::Kind::kNodeInfo, n, p});
      }
    }
  }
  return gaps;
}

// Nodes whose ports take SMSupportsExtendedSpeeds, by what a finished sweep read (switch port 0 or CA ports).
std::unordered_set<Guid> extended_speed_nodes(const ObservedFabric* last) {
  std::unordered_set<Guid> out;
  if (last == nullptr || !last->topo) return out;
  for (NodeIndex n = 0; n < last->topo->size(); ++n) {
    const Node& node = last->topo->node(n);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      if (node.is_switch() && p != 0) break;
      if (last->extended_speeds(n, p)) {
        out.insert(node.guid);
        break;
      }
    }
  }
  return out;
}

class Sweep {
 public:
  Sweep(SmpBatch& batch, std::unordered_set<Guid> ext_nodes) : batch_(batch), ext_nodes_(std::move(ext_nodes)) {}

  ObservedFabric run() {
    probe(mad::DrPath{}, kNoNode, 0);
    batch_.wait();
    return finish();
  }

  // Start from what `previous` holds and ask only for what it lacks (and for nodes found behind it).
  ObservedFabric resume(const ObservedFabric& previous) {
    if (!previous.topo || previous.topo->size() == 0) return run();
    seed(previous);
    for (const Gap& g : find_gaps(previous)) {
      switch (g.kind) {
        case Gap::Kind::kNodeDescription: read_description(g.node); break;
        case Gap::Kind::kSwitchInfo: read_switch_info(g.node); break;
        case Gap::Kind::kPortInfo: read_port_info(g.node, g.port, nodes_[g.node].rec.ports[g.port].path); break;
        case Gap::Kind::kNodeInfo: expand(g.node, g.port); break;
      }
    }
    batch_.wait();
    return finish();
  }

 private:
  struct From {
    NodeIndex node;
    PortNum port;
  };

  void problem(ProblemCode code, Guid guid, const mad::DrPath& path, std::string attribute, std::string reason) {
    SweepProblem p{code, guid, path.to_string(), std::move(attribute), std::move(reason)};
    spdlog::warn("discovery: {}", p.to_string());
    problems_.push_back(std::move(p));
  }

  // An SMP lost after all its retries. A later answer of the same pass may still fill the hole (a cable
  // found from its other end), so it becomes a problem only if the hole is there when the pass ends.
  void lost(const Gap& gap, const mad::SmpReply& r, Guid guid, const mad::DrPath& path, std::string attribute,
            std::string reason) {
    SweepProblem p{failure_code(r), guid, path.to_string(), std::move(attribute), std::move(reason)};
    spdlog::warn("discovery: {}", p.to_string());
    lost_.push_back({gap, std::move(p)});
  }

  bool still_a_hole(const Gap& gap) const {
    if (gap.node == kNoNode) return true;  // the SM's own node did not answer
    const WorkNode& n = nodes_[gap.node];
    switch (gap.kind) {
      case Gap::Kind::kNodeDescription: return !n.rec.description_read;
      case Gap::Kind::kSwitchInfo: return !n.rec.switch_info;
      case Gap::Kind::kPortInfo: return !n.rec.ports[gap.port].port_info;
      case Gap::Kind::kNodeInfo: return !n.node.ports[gap.port].connected();
    }
    return true;
  }

  // NodeInfo out of `from` (or to the SM's own node when from.node == kNoNode).
  void probe(const mad::DrPath& path, NodeIndex from_node, PortNum from_port) {
    if (from_node != kNoNode) nodes_[from_node].probed[from_port] = true;
    batch_.submit(mad::smp_get(path, mad::attr::kNodeInfo), [this, path, from_node, from_port](const mad::SmpReply& r) {
      if (r.outcome != mad::SmpOutcome::kOk) {
        // The silent node has no GUID yet: name it by its path and by the port that leads to it.
        std::string where;
        if (from_node != kNoNode) {
          where = " (the node behind port " + std::to_string(from_port) + " of " +
                  format_guid(nodes_[from_node].node.guid) + ")";
        }
        lost({Gap::Kind::kNodeInfo, from_node, from_port}, r, 0, path, "NodeInfo", mad::describe_failure(r) + where);
        return;
      }
      on_node_info(path, mad::NodeInfo::decode(r.data), from_node, from_port);
    });
  }

  void on_node_info(const mad::DrPath& path, const mad::NodeInfo& ni, NodeIndex from_node, PortNum from_port) {
    if (ni.num_ports == 0 || ni.num_ports > 254) {
      problem(ProblemCode::kMalformed, ni.node_guid, path, "NodeInfo",
              "impossible NumPorts " + std::to_string(ni.num_ports));
      return;
    }
    if (ni.node_type < 1 || ni.node_type > 3) {
      problem(ProblemCode::kMalformed, ni.node_guid, path, "NodeInfo",
              "unknown NodeType " + std::to_string(ni.node_type));
      return;
    }
    const bool is_switch = ni.node_type == static_cast<std::uint8_t>(NodeType::kSwitch);
    const PortNum local = is_switch && path.hop_count() == 0 ? 0 : ni.local_port_num;
    if (local > ni.num_ports || (local == 0 && !(is_switch && path.hop_count() == 0))) {
      // Port 0 is a switch's internal port (a CA has none): no cable ends there, so no SMP came in by it.
      problem(ProblemCode::kMalformed, ni.node_guid, path, "NodeInfo",
              "impossible LocalPortNum " + std::to_string(local) + " (NumPorts " + std::to_string(ni.num_ports) + ")");
      return;
    }

    auto it = by_guid_.find(ni.node_guid);
    if (it != by_guid_.end()) {
      WorkNode& known = nodes_[it->second];
      if (const std::string differs = identity_mismatch(known, ni, local); !differs.empty()) {
        problem(ProblemCode::kInconsistent, ni.node_guid, path, "NodeInfo",
                "duplicate GUID: this node reports " + differs + " than the node first seen at " +
                    known.path.to_string() + "; left out");
        return;
      }
      if (from_node != kNoNode && !link(from_node, from_port, it->second, local, path)) return;
      if (!known.node.is_switch() && !known.rec.ports[local].port_info && local != 0) {
        // A further port of a multi-port CA: its own SMA answers through this path.
        if (!claim_port_guid(ni, path, it->second, local)) return;
        known.node.ports[local].guid = ni.port_guid;
        known.rec.ports[local].path = path;
        read_port_info(it->second, local, path);
      }
      return;
    }

    const auto index = static_cast<NodeIndex>(nodes_.size());
    if (!claim_port_guid(ni, path, index, is_switch ? 0 : local)) return;
    WorkNode w;
    w.node.guid = ni.node_guid;
    w.node.system_image_guid = ni.system_image_guid;
    w.node.type = static_cast<NodeType>(ni.node_type);
    w.node.num_ports = static_cast<PortNum>(ni.num_ports);
    w.node.ports.resize(ni.num_ports + 1u);
    for (PortNum p = 0; p <= ni.num_ports; ++p) w.node.ports[p].num = p;
    w.node.dr_path = path.hops();
    w.path = path;
    w.rec.node_info = ni;
    w.rec.ports.assign(ni.num_ports + 1u, PortRecord{path, std::nullopt});
    w.probed.assign(ni.num_ports + 1u, false);
    w.disputed.assign(ni.num_ports + 1u, false);
    if (is_switch) {
      for (Port& p : w.node.ports) p.guid = ni.port_guid;
    } else {
      w.node.ports[local].guid = ni.port_guid;
    }
    nodes_.push_back(std::move(w));
    by_guid_.emplace(ni.node_guid, index);
    if (from_node != kNoNode && !link(from_node, from_port, index, local, path)) return;
    if (from_node == kNoNode) sm_port_ = local;

    read_description(index);
    if (is_switch) {
      read_switch_info(index);
      if (ext_nodes_.contains(ni.node_guid)) {
        for (PortNum p = 0; p <= ni.num_ports; ++p) read_port_info(index, p, path);
      } else {
        // Not known whether its ports take bit 31: port 0's CapabilityMask says, so it goes first. One
        // round trip more for a switch met for the first time, instead of a second read of every port.
        read_port_info(index, 0, path, true);
      }
    } else {
      read_port_info(index, local, path);
    }
  }

  // A PortGUID names one port in the subnet (IBA 14.2.5.7: guid2lid and every PathRecord key on it); a second
  // node answering with one already taken would be given the first port's LID. That node is left out, named
  // with both directed paths, as a duplicate NodeGUID is. Returns false when the GUID belongs to another port.
  bool claim_port_guid(const mad::NodeInfo& ni, const mad::DrPath& path, NodeIndex index, PortNum port) {
    auto [owner, fresh] = by_port_guid_.try_emplace(ni.port_guid, index, port);
    if (fresh || (owner->second.first == index && owner->second.second == port)) return true;
    const WorkNode& first = nodes_[owner->second.first];
    problem(ProblemCode::kInconsistent, ni.node_guid, path, "NodeInfo",
            "duplicate PortGUID " + format_guid(ni.port_guid) + ": already port " +
                std::to_string(owner->second.second) + " of node " + format_guid(first.node.guid) + " at " +
                first.path.to_string() + "; left out");
    return false;
  }

  // The same NodeGUID answered again: is it really the node seen before? A different SystemImageGUID, or
  // a PortGUID other than the one this port (switch: every port) reported, gives a second node away.
  // Returns what differs, "" when nothing does.
  static std::string identity_mismatch(const WorkNode& known, const mad::NodeInfo& ni, PortNum local) {
    if (static_cast<std::uint8_t>(known.node.type) != ni.node_type || known.node.num_ports != ni.num_ports) {
      return "another NodeType or NumPorts";
    }
    if (known.node.system_image_guid != ni.system_image_guid) return "another SystemImageGUID";
    const Guid known_port = known.node.is_switch() ? known.node.ports[0].guid : known.node.ports[local].guid;
    if (known_port != 0 && known_port != ni.port_guid) return "another PortGUID";
    return "";
  }

  void read_description(NodeIndex index) {
    batch_.submit(mad::smp_get(nodes_[index].path, mad::attr::kNodeDescription), [this, index](const mad::SmpReply& r) {
      WorkNode& n = nodes_[index];
      if (r.outcome != mad::SmpOutcome::kOk) {
        lost({Gap::Kind::kNodeDescription, index, 0}, r, n.node.guid, n.path, "NodeDescription",
             mad::describe_failure(r));
        return;
      }
      n.node.description = mad::NodeDescription::decode(r.data).text;
      n.rec.description_read = true;
    });
  }

  void read_switch_info(NodeIndex index) {
    batch_.submit(mad::smp_get(nodes_[index].path, mad::attr::kSwitchInfo), [this, index](const mad::SmpReply& r) {
      WorkNode& n = nodes_[index];
      if (r.outcome != mad::SmpOutcome::kOk) {
        lost({Gap::Kind::kSwitchInfo, index, 0}, r, n.node.guid, n.path, "SwitchInfo", mad::describe_failure(r));
        return;
      }
      const auto si = mad::SwitchInfo::decode(r.data);
      if (si.linear_fdb_cap == 0 && index != 0) {
        problem(ProblemCode::kCapacity, n.node.guid, n.path, "SwitchInfo",
                "LinearFDBCap is 0: the switch cannot hold a unicast route; left out of the fabric");
      }
      n.rec.switch_info = si;
      n.node.lft_cap = si.linear_fdb_cap;
      n.node.lft_top = si.linear_fdb_top;
    });
  }

  // Record a cable. A port that is already cabled elsewhere means two nodes share one GUID or a node
  // reports a wrong LocalPortNum; either way no one can tell which cable is real, so neither is kept
  // (a wrong cable would become a wrong forwarding table) and both ports stay out of this sweep.
  bool link(NodeIndex a, PortNum pa, NodeIndex b, PortNum pb, const mad::DrPath& path) {
    Port& x = nodes_[a].node.ports[pa];
    Port& y = nodes_[b].node.ports[pb];
    const bool x_ok = !x.connected() || (x.peer == b && x.peer_port == pb);
    const bool y_ok = !y.connected() || (y.peer == a && y.peer_port == pa);
    const bool disputed = nodes_[a].disputed[pa] || nodes_[b].disputed[pb];
    if (x_ok && y_ok && !disputed) {
      x.peer = b;
      x.peer_port = pb;
      y.peer = a;
      y.peer_port = pa;
      nodes_[b].probed[pb] = true;  // the far side need not probe back over this cable
      return true;
    }
    const std::string from = format_guid(nodes_[a].node.guid) + " port " + std::to_string(pa);
    std::string reason;
    if (!y_ok) {
      reason = "a duplicate GUID or a wrong LocalPortNum: port " + std::to_string(pb) + " is reached from " + from +
               " but is already cabled to " + end_name(y) + " (node first seen at " + nodes_[b].path.to_string() + ")";
    } else if (!x_ok) {
      reason = "links disagree: " + from + " leads to port " + std::to_string(pb) + " but is already cabled to " +
               end_name(x);
    } else {
      reason = "port " + std::to_string(pb) + " reached from " + from + " is already in dispute";
    }
    // The SM's own node is where every directed route starts: a cable already recorded on one of its
    // ports is the one its SMPs really take, so a second claim on that port is the impostor and only the
    // claim is refused.
    if ((!y_ok && b == 0) || (!x_ok && a == 0)) {
      problem(ProblemCode::kInconsistent, nodes_[b].node.guid, path, "NodeInfo",
              reason + "; the SM node's own cable kept, this one left out");
      for (auto [n, p] : {std::pair{a, pa}, std::pair{b, pb}}) {
        if (n == 0 || nodes_[n].node.ports[p].connected()) continue;
        nodes_[n].disputed[p] = true;
        nodes_[n].probed[p] = true;
      }
      return false;
    }
    problem(ProblemCode::kInconsistent, nodes_[b].node.guid, path, "NodeInfo", reason + "; cables left out");
    for (auto [n, p] : {std::pair{a, pa}, std::pair{b, pb}}) dispute(n, p);
    return false;
  }

  std::string end_name(const Port& p) const {
    return format_guid(nodes_[p.peer].node.guid) + " port " + std::to_string(p.peer_port);
  }

  // Take port p of node n, and whatever it was cabled to, out of this sweep.
  void dispute(NodeIndex n, PortNum p) {
    Port& port = nodes_[n].node.ports[p];
    if (port.connected()) {
      WorkNode& peer = nodes_[port.peer];
      Port& back = peer.node.ports[port.peer_port];
      peer.disputed[port.peer_port] = true;
      peer.probed[port.peer_port] = true;
      back.peer = kNoNode;
      back.peer_port = 0;
      port.peer = kNoNode;
      port.peer_port = 0;
    }
    nodes_[n].disputed[p] = true;
    nodes_[n].probed[p] = true;
  }

  // PortInfo Get of one port, with SMSupportsExtendedSpeeds where the port is known to take it. A reply read
  // without the bit that shows the capability is used at once (its state and LID are valid) and the port is
  // read again with the bit for its LinkSpeedExt* (OpenSM's re-query, IBA 14.2.5.6). `then_ports`: port 0 of
  // a switch read first, its external ports follow its answer.
  void read_port_info(NodeIndex index, PortNum port, const mad::DrPath& path, bool then_ports = false) {
    const bool ext = extended_known(index, port);
    batch_.submit(mad::smp_get(path, mad::attr::kPortInfo, mad::port_info_mod(port, ext)),
                  [this, index, port, path, ext, then_ports](const mad::SmpReply& r) {
                    WorkNode& n = nodes_[index];
                    if (r.outcome != mad::SmpOutcome::kOk) {
                      lost({Gap::Kind::kPortInfo, index, port}, r, n.node.guid, n.rec.ports[port].path,
                           "PortInfo " + std::to_string(port), mad::describe_failure(r));
                    } else {
                      const mad::PortInfo pi = mad::PortInfo::decode(r.data);
                      n.rec.ports[port].extended_read = ext;
                      on_port_info(index, port, pi);
                      if (!ext) read_again_extended(index, port, path, pi);
                    }
                    if (then_ports) {
                      for (PortNum q = 1; q <= nodes_[index].node.num_ports; ++q) read_port_info(index, q, path);
                    }
                  });
  }

  // Whether a PortInfo Get of this port carries bit 31 now: a CapabilityMask that speaks for it (its own, or
  // port 0's on a switch) was read with IsExtendedSpeedsSupported, in this pass or the sweep before.
  bool extended_known(NodeIndex index, PortNum port) const {
    const WorkNode& n = nodes_[index];
    return ext_nodes_.contains(n.node.guid) || takes_extended_speeds(n.rec, n.node.is_switch(), port);
  }

  // After a Get without bit 31: if the answer (or a switch's port 0) shows extended speeds, read the port
  // again with the bit, and when port 0 of a switch shows them, its ports already read without it too.
  // A switch's port 0 has no link of its own, so its extended speed fields are not worth a second read.
  void read_again_extended(NodeIndex index, PortNum port, const mad::DrPath& path, const mad::PortInfo& pi) {
    WorkNode& n = nodes_[index];
    const bool shows = (pi.capability_mask & mad::capmask::kIsExtendedSpeedsSupported) != 0;
    if (!shows && !(n.node.is_switch() && ext_nodes_.contains(n.node.guid))) return;
    ext_nodes_.insert(n.node.guid);
    if (n.node.is_switch() && port == 0) {
      for (PortNum q = 1; q <= n.node.num_ports; ++q) {
        if (n.rec.ports[q].port_info && !n.rec.ports[q].extended_read) read_port_info(index, q, path);
      }
      return;
    }
    read_port_info(index, port, path);
  }

  void on_port_info(NodeIndex index, PortNum port, const mad::PortInfo& pi) {
    WorkNode& n = nodes_[index];
    n.rec.ports[port].port_info = pi;
    Port& p = n.node.ports[port];
    p.lid = pi.lid;
    p.lmc = pi.lmc;
    p.state = pi.port_state >= 1 && pi.port_state <= 4 ? static_cast<PortState>(pi.port_state) : PortState::kDown;
    p.phys_state = pi.port_physical_state;
    p.link_width_active = pi.link_width_active;
    p.link_speed_active = pi.link_speed_active;
    p.vl_cap = pi.vl_cap;
    if (p.state == PortState::kActive && pi.lid == 0 && !n.node.is_switch()) {
      // A CA port that is Active without a LID lost it (an SMA reset with the link up) or was brought up
      // by an SM that never gave it one. Not a reason to refuse the port: the SM owns LIDs and gives it
      // one in "LIDs assigned"; if the port then still holds LID 0 that phase names it. (A switch's
      // port 0 is always Active and holds LID 0 until an SM sets one: normal, not logged.)
      spdlog::info("discovery: node {} port {} at DR path {}: Active with LID 0; it gets a LID from this SM",
                   format_guid(n.node.guid), port, n.rec.ports[port].path.to_string());
    }
    if (p.state == PortState::kDown || n.probed[port] || n.disputed[port] || p.connected()) return;
    expand(index, port);
  }

  // NodeInfo out of a live port whose far end is not known yet.
  void expand(NodeIndex index, PortNum port) {
    WorkNode& n = nodes_[index];
    if (!expandable(n.node, index == 0, port)) return;
    if (!n.path.can_extend()) {
      problem(ProblemCode::kCapacity, n.node.guid, n.path, "PortInfo " + std::to_string(port),
              "directed route would exceed 63 hops");
      return;
    }
    probe(n.path.extended(port), index, port);
  }

  // The nodes of a finished sweep, as they were when it ended (index i = topology node i; the SM's node,
  // discovered first, is node 0 of both).
  void seed(const ObservedFabric& prev) {
    const Topology& topo = *prev.topo;
    nodes_.reserve(topo.size());
    for (NodeIndex i = 0; i < topo.size(); ++i) {
      WorkNode w;
      w.node = topo.node(i);
      w.path = mad::DrPath(w.node.dr_path);
      w.rec = prev.nodes[i];
      w.probed.assign(w.node.ports.size(), false);
      w.disputed.assign(w.node.ports.size(), false);
      for (const Port& p : w.node.ports) w.probed[p.num] = p.connected();
      by_guid_.emplace(w.node.guid, i);
      for (const Port& p : w.node.ports) {
        if (p.guid != 0 && (!w.node.is_switch() || p.num == 0)) by_port_guid_.try_emplace(p.guid, i, p.num);
      }
      nodes_.push_back(std::move(w));
    }
    sm_port_ = topo.sm_port;
  }

  ObservedFabric finish() {
    // Before the nodes' attributes move out: the lost SMPs whose holes no later answer filled.
    for (auto& [gap, p] : lost_) {
      if (still_a_hole(gap)) problems_.push_back(std::move(p));
    }
    ObservedFabric out;
    auto topo = std::make_shared<Topology>();
    std::vector<NodeIndex> remap(nodes_.size(), kNoNode);
    for (NodeIndex i = 0; i < nodes_.size(); ++i) {
      WorkNode& w = nodes_[i];
      Node copy = w.node;
      for (Port& p : copy.ports) p.peer = kNoNode;
      auto added = topo->add_node(std::move(copy));
      if (!added.ok()) {
        problem(ProblemCode::kInconsistent, w.node.guid, w.path, "NodeInfo", added.error().message);
        continue;
      }
      remap[i] = added.value();
      out.nodes.push_back(std::move(w.rec));
    }
    for (NodeIndex i = 0; i < nodes_.size(); ++i) {
      if (remap[i] == kNoNode) continue;
      for (const Port& p : nodes_[i].node.ports) {
        if (!p.connected() || remap[p.peer] == kNoNode || p.peer < i || (p.peer == i && p.peer_port < p.num)) continue;
        if (auto st = topo->connect(remap[i], p.num, remap[p.peer], p.peer_port); !st.ok()) {
          problem(ProblemCode::kInconsistent, nodes_[i].node.guid, nodes_[i].path, "link", st.error().message);
        }
      }
    }
    if (!nodes_.empty() && remap[0] != kNoNode) {
      topo->sm_node = remap[0];
      topo->sm_port = sm_port_;
    }
    out.topo = std::move(topo);
    out.problems = std::move(problems_);
    return out;
  }

  SmpBatch& batch_;
  std::vector<WorkNode> nodes_;
  std::unordered_map<Guid, NodeIndex> by_guid_;
  std::unordered_map<Guid, std::pair<NodeIndex, PortNum>> by_port_guid_;  // PortGUID -> (node, port) it names
  std::vector<SweepProblem> problems_;
  std::vector<std::pair<Gap, SweepProblem>> lost_;
  PortNum sm_port_ = 0;
  std::unordered_set<Guid> ext_nodes_;  // nodes known to take bit 31 (extended_known())
};

}  // namespace

ObservedFabric discover_fabric(SmpBatch& batch, const ObservedFabric* last) {
  const auto before = batch.transport().stats().received;
  Sweep sweep(batch, extended_speed_nodes(last));
  ObservedFabric d = sweep.run();
  vet_discovered(d);
  d.smps = batch.transport().stats().received - before;
  return d;
}

ObservedFabric resume_discovery(SmpBatch& batch, const ObservedFabric& previous) {
  const auto before = batch.transport().stats().received;
  Sweep sweep(batch, extended_speed_nodes(&previous));
  ObservedFabric d = sweep.resume(previous);
  // What the first pass left out is a live port with an unknown far end, so it is asked again: vet the
  // result again, or a re-probed cable or switch would slip back in unchecked.
  vet_discovered(d);
  d.smps = batch.transport().stats().received - before;
  return d;
}

std::size_t discovery_gaps(const ObservedFabric& d) { return find_gaps(d).size(); }

std::string describe_first_gap(const ObservedFabric& d) {
  const std::vector<Gap> gaps = find_gaps(d);
  if (gaps.empty()) return "";
  const Gap& g = gaps.front();
  const Node& node = d.topo->node(g.node);
  std::string what;
  switch (g.kind) {
    case Gap::Kind::kNodeDescription: what = "NodeDescription"; break;
    case Gap::Kind::kSwitchInfo: what = "SwitchInfo"; break;
    case Gap::Kind::kPortInfo: what = "PortInfo " + std::to_string(g.port); break;
    case Gap::Kind::kNodeInfo: what = "NodeInfo out of port " + std::to_string(g.port); break;
  }
  return "node " + format_guid(node.guid) + " at DR path " + format_dr_path(node.dr_path) + ": " + what;
}

}  // namespace smd
