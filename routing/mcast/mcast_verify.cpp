#include "routing/mcast/mcast_verify.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

namespace smd {

namespace {

std::string at(const Topology& topo, NodeIndex n, PortNum p) {
  return (topo.node(n).is_switch() ? "switch " : "CA ") + describe_node(topo.node(n)) + " port " + std::to_string(p);
}

// The floods of one tree, with the per-tree lookups built once.
class TreeCheck {
 public:
  TreeCheck(const Topology& topo, Lid mlid, const McastTree& tree) : topo_(topo), mlid_(mlid), tree_(tree) {}

  std::string run(McastVerifyReport* report) {
    if (std::string e = resolve(); !e.empty()) return fail(e);
    if (tree_.members.size() < 2) return {};
    if (report != nullptr) ++report->trees;
    stamp_.assign(topo_.size(), 0);
    // Every sender hanging off one switch sends the same flood into the rest of the tree (a switch sends
    // out of every mask port but the one the packet came in by, so only the local ports differ): one flood
    // per sender switch covers its senders, whose local deliveries are then checked one by one. O(sender
    // switches x tree ports) instead of O(members x tree ports); the verdict is the per-member floods'.
    // Sender switches in the order of their first member, and each one's senders in member order: the
    // first problem named is the one the member-by-member floods would name first.
    std::unordered_map<NodeIndex, std::vector<std::size_t>> by_switch;
    std::vector<NodeIndex> switches;
    for (std::size_t i = 0; i < senders_.size(); ++i) {
      auto [it, fresh] = by_switch.try_emplace(senders_[i].sw);
      if (fresh) switches.push_back(senders_[i].sw);
      it->second.push_back(i);
    }
    bool first = true;
    for (NodeIndex sw : switches) {
      const std::vector<std::size_t>& on = by_switch.at(sw);
      if (std::string e = flood(on.front(), report); !e.empty()) return fail(e);
      for (std::size_t j = 0; j < on.size(); ++j) {
        if (std::string e = local(on[j], report); !e.empty()) return fail(e);
        if (first) {
          first = false;
          for (const auto& [n, mask] : masks_) {
            if (stamp_[n] != gen_) {
              return fail(at(topo_, n, 0) + ": holds the MLID but no member's packets reach it (stray entry)");
            }
          }
        }
      }
    }
    return {};
  }

 private:
  std::string fail(const std::string& e) const { return "MLID " + format_mlid(mlid_) + ": " + e; }

  static std::uint64_t key(NodeIndex n, PortNum p) { return (std::uint64_t{n} << 8) | p; }

  // GUIDs to nodes, and the structural checks of every mask port.
  std::string resolve() {
    for (const auto& [guid, mask] : tree_.switches) {
      const auto n = topo_.find(guid);
      if (!n || !topo_.node(*n).is_switch())
        return "switch " + format_guid(guid) + " on the tree is not a switch of the fabric";
      masks_.emplace(*n, &mask);
    }
    for (std::size_t i = 0; i < tree_.members.size(); ++i) {
      const McastMember& m = tree_.members[i];
      const auto n = topo_.find(m.node_guid);
      if (!n || m.port > topo_.node(*n).num_ports) {
        return "member " + format_guid(m.node_guid) + " port " + std::to_string(m.port) + " is not in the fabric";
      }
      member_index_.emplace(key(*n, m.port), i);
      const Node& node = topo_.node(*n);
      if (node.is_switch()) {
        senders_.push_back({*n, m.port, *n, 0});
      } else {
        const Port& port = node.ports[m.port];
        if (!port.connected() || !topo_.node(port.peer).is_switch()) {
          return "member " + at(topo_, *n, m.port) + " is not cabled to a switch";
        }
        senders_.push_back({*n, m.port, port.peer, port.peer_port});
      }
    }
    for (const auto& entry : masks_) {
      // Named copies, not a structured binding: the lambda below uses them, and clang before 16 cannot
      // capture a binding.
      const NodeIndex n = entry.first;
      const auto& mask = entry.second;
      const Node& sw = topo_.node(n);
      std::string e;
      mask->for_each([&](PortNum p) {
        if (!e.empty()) return;
        if (p > sw.num_ports) {
          e = at(topo_, n, p) + ": port beyond NumPorts " + std::to_string(sw.num_ports);
        } else if (p == 0) {
          if (!member_index_.contains(key(n, 0))) e = at(topo_, n, 0) + ": the switch is in its mask but not a member";
        } else if (!sw.ports[p].connected()) {
          e = at(topo_, n, p) + ": port is not cabled (the packet leaves the tree)";
        } else {
          const NodeIndex peer = sw.ports[p].peer;
          const PortNum pp = sw.ports[p].peer_port;
          if (topo_.node(peer).is_switch()) {
            auto it = masks_.find(peer);
            if (it == masks_.end() || !it->second->test(pp)) {
              e = at(topo_, n, p) + ": leads to " + at(topo_, peer, pp) +
                  ", which does not send back on that port (the packet leaves the tree)";
            }
          } else if (!member_index_.contains(key(peer, pp))) {
            e = at(topo_, n, p) + ": leads to " + at(topo_, peer, pp) + ", not a member";
          }
        }
      });
      if (!e.empty()) return e;
    }
    return {};
  }

  // The flood from sender `s`'s switch into the rest of the tree: every member hanging off another switch
  // reached exactly once (reached_), no switch twice, never off the tree. Members on the sender's own
  // switch are local(): the switch delivers to them directly.
  std::string flood(std::size_t s, McastVerifyReport* report) {
    (void)report;
    const Sender& from = senders_[s];
    ++gen_;
    reached_.assign(tree_.members.size(), 0);
    const std::string who = "from member " + at(topo_, from.node, from.port);
    std::vector<std::pair<NodeIndex, PortNum>> stack{{from.sw, kFromInside}};
    while (!stack.empty()) {
      const NodeIndex n = stack.back().first;  // not a binding: the lambda below captures both
      const PortNum in = stack.back().second;
      stack.pop_back();
      if (stamp_[n] == gen_) return who + ": revisits " + at(topo_, n, in) + " (a loop, or two paths into it)";
      stamp_[n] = gen_;
      auto it = masks_.find(n);
      if (it == masks_.end()) return who + ": reaches " + at(topo_, n, in) + ", which has no entry for the MLID";
      std::string e;
      it->second->for_each([&](PortNum p) {
        if (p == in || !e.empty()) return;
        NodeIndex to = n;
        PortNum to_port = 0;
        if (p != 0) {
          const Port& port = topo_.node(n).ports[p];
          if (topo_.node(port.peer).is_switch()) {
            stack.emplace_back(port.peer, port.peer_port);
            return;
          }
          to = port.peer;
          to_port = port.peer_port;
        }
        if (n == from.sw) return;  // local to the sender's switch: local() checks it per sender
        const std::size_t i = member_index_.at(key(to, to_port));
        if (++reached_[i] > 1) {
          e = who + ": " + at(topo_, n, p) + " delivers it a second time to " + at(topo_, to, to_port);
        }
      });
      if (!e.empty()) return e;
    }
    return {};
  }

  // Sender `s` after its switch's flood: every other member reached exactly once — those on other
  // switches by the flood, those on its own switch by that switch's mask (never back to the sender: a
  // switch does not send a packet out of the port it came in by).
  std::string local(std::size_t s, McastVerifyReport* report) {
    const Sender& from = senders_[s];
    const McastPortMask& mask = *masks_.at(from.sw);
    const std::string who = "from member " + at(topo_, from.node, from.port);
    for (std::size_t i = 0; i < senders_.size(); ++i) {
      if (i == s) continue;
      const Sender& m = senders_[i];
      const bool reached = m.sw == from.sw ? mask.test(m.in) : reached_[i] == 1;
      if (!reached) {
        return who + ": never reaches member " + at(topo_, m.node, m.port) + " (hanging off " + at(topo_, m.sw, m.in) +
               ")";
      }
    }
    if (report != nullptr) {
      ++report->floods;
      report->deliveries += senders_.size() - 1;
    }
    return {};
  }

  /// The flood's start: inside the sender's switch (no port is the one it came in by).
  static constexpr PortNum kFromInside = 0xFF;

  struct Sender {
    NodeIndex node;  // the member
    PortNum port;
    NodeIndex sw;  // where its packets enter the tree, and on which port
    PortNum in;
  };

  const Topology& topo_;
  Lid mlid_;
  const McastTree& tree_;
  std::map<NodeIndex, const McastPortMask*> masks_;  // ordered: the first problem named is reproducible
  std::unordered_map<std::uint64_t, std::size_t> member_index_;
  std::vector<Sender> senders_;  // [member index]
  std::vector<std::uint32_t> stamp_;
  std::uint32_t gen_ = 0;
  std::vector<std::uint32_t> reached_;
};

}  // namespace

std::string check_mcast_tree(const Topology& topo, Lid mlid, const McastTree& tree) {
  return TreeCheck(topo, mlid, tree).run(nullptr);
}

Result<McastVerifyReport> verify_mcast(const Topology& topo, const McastTables& tables) {
  McastVerifyReport report;
  std::string first;
  std::size_t failing = 0;
  for (const auto& [mlid, tree] : tables.trees) {
    ++report.groups;
    report.switch_entries += tree.switches.size();
    std::string e = TreeCheck(topo, mlid, tree).run(&report);
    if (e.empty()) continue;
    if (failing++ == 0) first = std::move(e);
  }
  if (failing > 0) {
    return make_error(ErrorCode::kVerifyFailed, std::to_string(failing) + " of " + std::to_string(report.groups) +
                                                    " multicast groups fail; first: " + first);
  }
  return report;
}

}  // namespace smd
