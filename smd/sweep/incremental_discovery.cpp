#include "smd/sweep/incremental_discovery.h"

#include <spdlog/spdlog.h>

#include <deque>
#include <set>

#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "smd/sweep/discovered_subset.h"
#include "smd/sweep/discovery_vet.h"

namespace smd {

namespace {

// PortStateChange polls before giving up on a fabric that keeps changing while it is read.
constexpr unsigned kMaxPolls = 8;
// Times a poll asks a switch again that lost every answer to SwitchInfo, transport retries included.
constexpr unsigned kPollAskAgain = 2;

// The code of an SMP that did not end well: an SMA's error status says the same when asked again
// (kTransport); no answer may be a cable that went down meanwhile (kTimeout).
ErrorCode smp_failure(const mad::SmpReply& r) {
  return r.outcome == mad::SmpOutcome::kBadStatus ? ErrorCode::kTransport : ErrorCode::kTimeout;
}

bool live(std::uint8_t state) { return state >= 2 && state <= 4; }  // Init, Armed, Active

// Where a directed path from the SM's node ends, or kNoNode when it crosses a missing cable, leaves a
// CA other than the SM's node, or is too long. `arrival` is the port it enters the last node by.
NodeIndex walk(const Topology& topo, const std::vector<std::uint8_t>& hops, PortNum& arrival) {
  NodeIndex n = topo.sm_node;
  arrival = topo.node(n).is_switch() ? 0 : topo.sm_port;
  for (std::size_t i = 0; i < hops.size(); ++i) {
    const Node& node = topo.node(n);
    if (i > 0 && !node.is_switch()) return kNoNode;
    if (hops[i] == 0 || hops[i] > node.num_ports || !node.ports[hops[i]].connected()) return kNoNode;
    arrival = node.ports[hops[i]].peer_port;
    n = node.ports[hops[i]].peer;
  }
  return hops.size() > mad::kMaxHops ? kNoNode : n;
}

// A cabled port found live but not Active: its link trained again since the last sweep.
struct Retrained {
  NodeIndex node;
  PortNum port;
  bool degraded;  // its state fell (Active -> Init): the far end is read again too
};

class Rediscovery {
 public:
  Rediscovery(SmpBatch& batch, const ObservedFabric& previous, const NodeNames& names)
      : batch_(batch), names_(names), d_(previous) {
    d_.topo = std::make_shared<Topology>(*previous.topo);
    d_.problems.clear();
  }

  IncrementalDiscovery run(const std::vector<Guid>& changed) {
    const auto before = batch_.transport().stats().received;
    for (Guid g : changed) suspect(g);
    for (unsigned poll = 0; ok() && poll < kMaxPolls; ++poll) {
      while (ok() && !suspects_.empty()) read_ready_suspects();
      if (!ok()) break;
      poll_port_state_change();
      if (ok() && suspects_.empty()) {
        // Vetted like a full discovery; then every directed path follows cables the fabric still has
        // (one that crossed a cable the vet left out gets a shortest path over the rest).
        vet_discovered(d_);
        if (topo().sm_node == kNoNode) fail("the SM's own node was left out by the vet");
        if (ok()) refresh_paths();
        if (!ok()) break;
        d_.smps = batch_.transport().stats().received - before;
        out_.fabric = std::move(d_);
        return std::move(out_);
      }
    }
    if (ok()) fail("the fabric was still changing after " + std::to_string(kMaxPolls) + " PortStateChange polls");
    return std::move(out_);
  }

 private:
  bool ok() const { return out_.status.ok(); }
  // The first failure is the one reported: later ones follow from it.
  void fail(ErrorCode code, std::string why) {
    if (ok()) out_.status = make_error(code, std::move(why));
  }
  // What the fabric read cannot be explained by the last sweep's: a full discovery is the answer.
  void fail(std::string why) { fail(ErrorCode::kDeclined, std::move(why)); }
  Topology& topo() { return *d_.topo; }
  std::string where(NodeIndex n) const {
    const Node& node = d_.topo->node(n);
    return "node " + format_guid(node.guid) + " at DR path " + format_dr_path(node.dr_path);
  }

  // A node whose links may have changed: a switch is read in full; a CA's switch is read instead.
  void suspect(Guid guid) {
    const auto n = topo().find(guid);
    if (!n) {
      fail("node " + format_guid(guid) + " is not in the last sweep's fabric");
      return;
    }
    const Node& node = topo().node(*n);
    if (node.is_switch()) {
      if (!done_.contains(guid)) suspects_.insert(guid);
      return;
    }
    for (const Port& p : node.ports) {
      if (p.connected() && topo().node(p.peer).is_switch() && !done_.contains(topo().node(p.peer).guid)) {
        suspects_.insert(topo().node(p.peer).guid);
      }
    }
  }

  // Read every port of the suspects whose directed path crosses no other suspect: a cable lost on the
  // way to a switch is then always seen from its near end first, and the path moved off it.
  void read_ready_suspects() {
    std::vector<NodeIndex> ready;
    for (Guid g : suspects_) {
      const NodeIndex n = *topo().find(g);
      bool blocked = false;
      NodeIndex at = topo().sm_node;
      for (std::uint8_t hop : topo().node(n).dr_path) {
        if (at == kNoNode || hop > topo().node(at).num_ports) break;  // paths are kept valid; never taken
        if (suspects_.contains(topo().node(at).guid)) blocked = true;
        at = topo().node(at).ports[hop].peer;
      }
      if (!blocked) ready.push_back(n);
    }
    if (ready.empty()) {
      fail("no suspect switch is reachable without crossing another");
      return;
    }
    if (!paths_still_up(ready)) return;
    std::vector<std::vector<mad::SmpData>> read(ready.size());
    for (std::size_t i = 0; i < ready.size(); ++i) {
      const NodeIndex n = ready[i];
      const Node& node = topo().node(n);
      read[i].resize(node.ports.size());
      const mad::DrPath path(node.dr_path);
      for (PortNum p = 0; p <= node.num_ports; ++p) {
        batch_.submit(mad::smp_get(path, mad::attr::kPortInfo, d_.port_info_mod(n, p)), [this, &read, i, n, p](const mad::SmpReply& r) {
          if (r.outcome == mad::SmpOutcome::kOk) {
            read[i][p] = r.data;
          } else {
            fail(smp_failure(r), where(n) + ": PortInfo " + std::to_string(p) + ": " + mad::describe_failure(r));
          }
        });
      }
    }
    batch_.wait();
    if (!ok()) return;
    std::vector<std::pair<NodeIndex, PortNum>> lost, gained;
    std::vector<Retrained> retrained;
    for (std::size_t i = 0; i < ready.size(); ++i) {
      const NodeIndex n = ready[i];
      suspects_.erase(topo().node(n).guid);
      done_.insert(topo().node(n).guid);
      ++out_.switches_reread;
      for (PortNum p = 0; p <= topo().node(n).num_ports; ++p) {
        apply_port_info(n, p, read[i][p], lost, gained, &retrained);
      }
    }
    for (const Retrained& r : retrained) {
      if (ok()) verify_peer(r);
    }
    for (auto [n, p] : gained) {
      if (ok()) connect_gained(n, p);
    }
    if (!lost.empty() && ok()) drop_lost(lost);
  }

  // Before the suspects are read through their directed paths: is every out-port on those paths still
  // up? A trap from the far end of a lost cable would otherwise send SMPs over the cable it reports, to
  // time out. The hops are checked one level at a time from the SM outwards, so nothing is sent beyond a
  // hop found down; that hop's switch becomes a suspect, read first (returns false: not read yet).
  bool paths_still_up(const std::vector<NodeIndex>& ready) {
    std::vector<std::set<std::pair<NodeIndex, PortNum>>> levels;
    for (NodeIndex n : ready) {
      NodeIndex at = topo().sm_node;
      const std::vector<std::uint8_t>& path = topo().node(n).dr_path;
      for (std::size_t i = 0; i < path.size(); ++i) {
        if (at == kNoNode || path[i] == 0 || path[i] > topo().node(at).num_ports) break;  // kept valid
        if (levels.size() <= i) levels.resize(i + 1);
        levels[i].emplace(at, path[i]);
        at = topo().node(at).ports[path[i]].peer;
      }
    }
    for (const auto& hops : levels) {
      std::vector<NodeIndex> down;
      std::string silent_hop;
      for (const auto& [hop_node, hop_port] : hops) {
        const NodeIndex at = hop_node;  // named copies: clang 14 cannot capture structured bindings
        const PortNum hop = hop_port;
        batch_.submit(mad::smp_get(mad::DrPath(topo().node(at).dr_path), mad::attr::kPortInfo, d_.port_info_mod(at, hop)),
                      [this, &down, &silent_hop, at, hop](const mad::SmpReply& r) {
                        if (r.outcome != mad::SmpOutcome::kOk) {
                          if (silent_hop.empty()) {
                            silent_hop =
                                where(at) + ": PortInfo " + std::to_string(hop) + ": " + mad::describe_failure(r);
                          }
                        } else if (!live(mad::PortInfo::decode(r.data).port_state)) {
                          down.push_back(at);
                        }
                      });
      }
      batch_.wait();
      if (!down.empty()) {
        const std::size_t before = suspects_.size();
        for (NodeIndex at : down) suspect(topo().node(at).guid);
        if (suspects_.size() == before) {
          fail(where(down.front()) + ": a port on a directed path went down after it was read");
        }
        return false;
      }
      if (!silent_hop.empty()) {
        fail(silent_hop);
        return false;
      }
    }
    return true;
  }

  // Record one re-read PortInfo; a cabled port that went Down is lost, an uncabled one that came up is
  // gained, and a cabled one that fell back (Active -> Init: the far end reset) has its far end re-read.
  void apply_port_info(NodeIndex n, PortNum p, const mad::SmpData& data,
                       std::vector<std::pair<NodeIndex, PortNum>>& lost,
                       std::vector<std::pair<NodeIndex, PortNum>>& gained,
                       std::vector<Retrained>* retrained = nullptr) {
    const auto pi = mad::PortInfo::decode(data);
    const mad::PortInfo* before = d_.port_info(n, p);
    const std::uint8_t was = before ? before->port_state : 0;
    const bool extended = d_.extended_speeds(n, p);  // what the Get carried: decided from these records
    d_.nodes[n].ports[p].port_info = pi;
    d_.nodes[n].ports[p].extended_read = extended;
    Port& port = topo().mutable_node(n).ports[p];
    port.state = pi.port_state >= 1 && pi.port_state <= 4 ? static_cast<PortState>(pi.port_state) : PortState::kDown;
    port.phys_state = pi.port_physical_state;
    port.link_width_active = pi.link_width_active;
    port.link_speed_active = pi.link_speed_active;
    port.vl_cap = pi.vl_cap;
    if (p == 0) return;
    if (port.connected()) {
      const bool degraded = pi.port_state < was;
      if (!live(pi.port_state)) {
        lost.emplace_back(n, p);
      } else if (retrained != nullptr && (degraded || pi.port_state != 4)) {
        // Not Active: the link trained again since an SM activated it, so the cable may now lead
        // elsewhere (swapped, or a replaced card): NodeInfo through it checks, in verify_peer().
        retrained->push_back({n, p, degraded});
      } else if (degraded) {
        reread_far_end(port.peer, port.peer_port);
      }
    } else if (live(pi.port_state)) {
      gained.emplace_back(n, p);
    }
  }

  // NodeInfo through a cabled port that trained again must name the node and port the cable led to.
  void verify_peer(const Retrained& r) {
    const Node& node = topo().node(r.node);
    const Port& port = node.ports[r.port];
    if (!port.connected()) return;  // cut meanwhile
    mad::NodeInfo ni;
    bool read = false;
    batch_.submit(mad::smp_get(mad::DrPath(node.dr_path).extended(r.port), mad::attr::kNodeInfo),
                  [&](const mad::SmpReply& rep) {
                    if (rep.outcome == mad::SmpOutcome::kOk) {
                      ni = mad::NodeInfo::decode(rep.data);
                      read = true;
                    } else {
                      fail(smp_failure(rep), where(r.node) + ": NodeInfo out of port " + std::to_string(r.port) + ": " +
                                                      mad::describe_failure(rep));
                    }
                  });
    batch_.wait();
    if (!read) return;
    const Node& peer = topo().node(port.peer);
    if (ni.node_guid != peer.guid || ni.local_port_num != port.peer_port) {
      fail(where(r.node) + ": port " + std::to_string(r.port) + " now leads to node " + format_guid(ni.node_guid) +
           " port " + std::to_string(ni.local_port_num) + ", not " + format_guid(peer.guid) + " port " +
           std::to_string(port.peer_port) + " as before: the cabling changed");
      return;
    }
    if (r.degraded) reread_far_end(port.peer, port.peer_port);
  }

  // The far end of a cable that changed: a switch not read yet is read in full, later; a switch already
  // read (before this cable trained) and a CA have that one port read now.
  void reread_far_end(NodeIndex far, PortNum far_port) {
    const Node& node = topo().node(far);
    if (node.is_switch() && !done_.contains(node.guid)) {
      suspect(node.guid);
      return;
    }
    mad::SmpData data{};
    bool read = false;
    batch_.submit(mad::smp_get(d_.port_path(far, far_port), mad::attr::kPortInfo, d_.port_info_mod(far, far_port)),
                  [&](const mad::SmpReply& r) {
                    if (r.outcome == mad::SmpOutcome::kOk) {
                      data = r.data;
                      read = true;
                    } else {
                      fail(smp_failure(r), where(far) + ": PortInfo " + std::to_string(far_port) + ": " + mad::describe_failure(r));
                    }
                  });
    batch_.wait();
    if (!read) return;
    std::vector<std::pair<NodeIndex, PortNum>> lost, gained;
    apply_port_info(far, far_port, data, lost, gained);
    if (!lost.empty() || !gained.empty()) fail(where(far) + ": port " + std::to_string(far_port) + " changed again");
  }

  // A port that came up: NodeInfo through it must name a node and a free port the last sweep knew.
  void connect_gained(NodeIndex n, PortNum p) {
    if (topo().node(n).ports[p].connected()) return;  // cabled from its other end meanwhile
    const Node& node = topo().node(n);
    if (node.dr_path.size() >= mad::kMaxHops) {
      fail(where(n) + ": port " + std::to_string(p) + " came up beyond 63 hops");
      return;
    }
    mad::NodeInfo ni;
    bool read = false;
    batch_.submit(mad::smp_get(mad::DrPath(node.dr_path).extended(p), mad::attr::kNodeInfo),
                  [&](const mad::SmpReply& r) {
                    if (r.outcome == mad::SmpOutcome::kOk) {
                      ni = mad::NodeInfo::decode(r.data);
                      read = true;
                    } else {
                      fail(smp_failure(r), where(n) + ": NodeInfo out of port " + std::to_string(p) + ": " + mad::describe_failure(r));
                    }
                  });
    batch_.wait();
    if (!read) return;
    const auto m = topo().find(ni.node_guid);
    const std::string cable = where(n) + " port " + std::to_string(p) + " came up to node " + format_guid(ni.node_guid);
    if (!m) {
      fail(cable + ", new to this SM");
      return;
    }
    Node& far = topo().mutable_node(*m);
    const PortNum q = ni.local_port_num;
    const bool same = static_cast<std::uint8_t>(far.type) == ni.node_type && far.num_ports == ni.num_ports &&
                      far.system_image_guid == ni.system_image_guid && q >= 1 && q <= far.num_ports &&
                      (far.is_switch() ? far.ports[0].guid : far.ports[q].guid) == ni.port_guid;
    if (!same) {
      fail(cable + " port " + std::to_string(q) + ", which does not match the node of that GUID seen before");
      return;
    }
    if (far.ports[q].connected() || (*m == n && q == p)) {
      fail(cable + " port " + std::to_string(q) + ", which is already cabled");
      return;
    }
    if (auto st = topo().connect(n, p, *m, q); !st.ok()) {
      fail(cable + ": " + st.error().message);
      return;
    }
    ++out_.cables_gained;
    spdlog::info("incremental sweep: cable up: {} port {} <-> {} port {}", names_.describe(node), p,
                 names_.describe(far), q);
    // A CA is reached again through the new cable; its PortInfo says what state the link trained to.
    if (!far.is_switch()) d_.nodes[*m].ports[q].path = mad::DrPath(node.dr_path).extended(p);
    reread_far_end(*m, q);
  }

  // Take the lost cables out, drop what they cut off, and move every directed path off them.
  void drop_lost(const std::vector<std::pair<NodeIndex, PortNum>>& lost) {
    std::vector<bool> keep(topo().size(), true);
    std::vector<std::vector<bool>> cut(topo().size());
    for (NodeIndex n = 0; n < topo().size(); ++n) cut[n].assign(topo().node(n).ports.size(), false);
    for (auto [n, p] : lost) {
      const Port& port = topo().node(n).ports[p];
      if (!port.connected() || cut[n][p]) continue;  // both ends may report the same cable
      spdlog::info("incremental sweep: cable down: {} port {} <-> {} port {}", names_.describe(topo().node(n)), p,
                   names_.describe(topo().node(port.peer)), port.peer_port);
      ++out_.cables_lost;
      cut[n][p] = cut[port.peer][port.peer_port] = true;
      suspect(topo().node(port.peer).guid);  // a switch at the far end changed too (a CA may be cut off)
    }
    const std::vector<bool> seen = reachable_from_sm(topo(), keep, cut);
    for (NodeIndex n = 0; n < topo().size(); ++n) {
      if (seen[n]) continue;
      keep[n] = false;
      ++out_.nodes_lost;
      spdlog::info("incremental sweep: {} is no longer reachable and leaves the fabric", where(n));
      suspects_.erase(topo().node(n).guid);
    }
    keep_subset(d_, keep, cut);
    refresh_paths();
  }

  // Keep every directed path that still leads where it did; give the others a shortest path (BFS from
  // the SM's node, lowest port first) over the cables that remain.
  void refresh_paths() {
    Topology& t = topo();
    std::vector<std::vector<std::uint8_t>> bfs(t.size());
    walk_from_sm(
        t, [](NodeIndex, const Port&) { return true; },
        [&](NodeIndex from, const Port& p, NodeIndex to) {
          bfs[to] = bfs[from];
          bfs[to].push_back(static_cast<std::uint8_t>(p.num));
        });
    for (NodeIndex n = 0; n < t.size(); ++n) {
      Node& node = t.mutable_node(n);
      PortNum arrival = 0;
      if (walk(t, node.dr_path, arrival) != n) node.dr_path = bfs[n];
      if (node.dr_path.size() > mad::kMaxHops) fail(where(n) + ": directed route would exceed 63 hops");
    }
    // Port paths after every node path: a CA port's path goes through its switch's (new) path.
    for (NodeIndex n = 0; n < t.size(); ++n) {
      const Node& node = t.node(n);
      for (PortNum p = 0; p <= node.num_ports; ++p) {
        mad::DrPath& pp = d_.nodes[n].ports[p].path;
        if (node.is_switch()) {
          pp = mad::DrPath(node.dr_path);
          continue;
        }
        if (n == t.sm_node && p == t.sm_port) continue;
        // A CA port's own SMA is reached through the cable at that port.
        const Port& port = node.ports[p];
        PortNum in = 0;
        if (port.connected() && (walk(t, pp.hops(), in) != n || in != p)) {
          pp = mad::DrPath(t.node(port.peer).dr_path).extended(port.peer_port);
        }
      }
    }
  }

  // SwitchInfo of every switch along its (new) path: PortStateChange names what no trap did. A switch
  // that does not answer may sit behind a cable that went down unannounced; it is forgiven while the
  // poll still finds new suspects (their cables get read and paths move), and only then is it something
  // this sweep cannot explain.
  void poll_port_state_change() {
    const Topology& t = topo();
    std::vector<NodeIndex> ask(t.switches().begin(), t.switches().end());
    std::vector<std::pair<NodeIndex, Error>> silent;
    // A switch that lost its answers after every transport retry is asked again (as the light sweep
    // does) before it counts as silent: on a lossy fabric that beats a full discovery.
    for (unsigned round = 0; round <= kPollAskAgain && !ask.empty() && suspects_.empty(); ++round) {
      silent.clear();
      for (NodeIndex s : ask) {
        batch_.submit(mad::smp_get(mad::DrPath(t.node(s).dr_path), mad::attr::kSwitchInfo),
                      [this, s, &silent](const mad::SmpReply& r) {
                        if (r.outcome != mad::SmpOutcome::kOk) {
                          silent.emplace_back(s, make_error(smp_failure(r), mad::describe_failure(r)));
                          return;
                        }
                        const auto si = mad::SwitchInfo::decode(r.data);
                        d_.nodes[s].switch_info = si;
                        if (si.port_state_change) suspect(topo().node(s).guid);
                      });
      }
      batch_.wait();
      ask.clear();
      for (const auto& [s, why] : silent) ask.push_back(s);
    }
    if (!silent.empty() && suspects_.empty())
      fail(silent.front().second.code, where(silent.front().first) + ": SwitchInfo: " + silent.front().second.message);
  }

  SmpBatch& batch_;
  const NodeNames& names_;
  ObservedFabric d_;
  IncrementalDiscovery out_;
  std::set<Guid> suspects_;  // by GUID: node indices change when nodes leave
  std::set<Guid> done_;
};

}  // namespace

IncrementalDiscovery rediscover_changed(SmpBatch& batch, const ObservedFabric& previous,
                                        const std::vector<Guid>& changed, const NodeNames& names) {
  IncrementalDiscovery out;
  if (!previous.topo || previous.topo->size() == 0 || previous.topo->sm_node == kNoNode) {
    out.status = make_error(ErrorCode::kDeclined, "no previous sweep to start from");
    return out;
  }
  if (discovery_gaps(previous) != 0) {
    out.status = make_error(ErrorCode::kDeclined, "the previous sweep left " + std::to_string(discovery_gaps(previous)) +
                                                      " attributes unread, the first " + describe_first_gap(previous));
    return out;
  }
  return Rediscovery(batch, previous, names).run(changed);
}

}  // namespace smd
