#include "routing/netfile/netfile.h"

#include <unordered_map>

#include "routing/netfile/netfile_parse.h"

namespace smd {

void IbsimGuidCounter::assign(Node& node) {
  Guid& counter = node.type == NodeType::kSwitch ? next_switch_ : node.type == NodeType::kCa ? next_ca_ : next_router_;
  node.guid = counter;
  node.system_image_guid = counter;
  for (std::size_t p = 0; p < node.ports.size(); ++p) {
    // Switch ports share the node's port-0 GUID; CA/router port p is node GUID + p (port 0 unused).
    node.ports[p].guid = node.is_switch() ? counter : (p == 0 ? 0 : counter + p);
  }
  counter += node.is_switch() ? 1 : static_cast<Guid>(node.num_ports) + 1;
}

void IbsimGuidCounter::restart_at(NodeType type, Guid guid) {
  (type == NodeType::kSwitch ? next_switch_ : type == NodeType::kCa ? next_ca_ : next_router_) = guid;
}

namespace {

using netfile::Location;
using netfile::NodeRecord;
using netfile::PortLine;

Error input_error(const Location& at, const std::string& what) {
  return make_error(ErrorCode::kInvalidInput, at.str() + ": " + what);
}

std::string end_name(const std::string& id, unsigned port) { return "\"" + id + "\"[" + std::to_string(port) + "]"; }

// Highest set bit of a width mask by lane count (12x > 8x > 4x > 2x > 1x); 0 if none.
std::uint8_t best_width(unsigned mask) {
  for (unsigned bit : {8u, 4u, 2u, 16u, 1u}) {
    if (mask & bit) return static_cast<std::uint8_t>(bit);
  }
  return 0;
}

// Highest set bit of a speed mask (QDR > DDR > SDR); 0 if none.
std::uint8_t best_speed(unsigned mask) {
  for (unsigned bit : {4u, 2u, 1u}) {
    if (mask & bit) return static_cast<std::uint8_t>(bit);
  }
  return 0;
}

// ibsim refuses a link whose two ends share no width (or speed) bit. When only one end states a rate
// (a hand-written file), that end's rate is taken; when neither does, ibsim's default (4x, SDR).
// Returns 0 when both ends state masks that do not meet.
unsigned meet(unsigned a, unsigned b, unsigned dflt) {
  if (a == 0 && b == 0) return dflt;
  if (a == 0 || b == 0) return a | b;
  return a & b;
}

std::string hex(Guid g) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[g & 0xF]);
    g >>= 4;
  } while (g != 0);
  return "0x" + s;
}

class Builder {
 public:
  explicit Builder(std::vector<NodeRecord>& recs) : recs_(recs) {}

  Result<Topology> build() {
    Status st = index_nodes();
    if (!st.ok()) return st.error();
    for (NodeIndex i = 0; i < recs_.size(); ++i) {
      Result<NodeIndex> added = topo_.add_node(make_node(recs_[i]));
      if (!added.ok()) return added.error().with_context(recs_[i].at.str());
    }
    for (NodeIndex i = 0; i < recs_.size(); ++i) {
      for (const PortLine& pl : recs_[i].lines) {
        st = link(i, pl);
        if (!st.ok()) return st.error();
      }
    }
    choose_sm();
    return std::move(topo_);
  }

 private:
  // Id -> record and (record, port) -> line, rejecting duplicates and out-of-range ports.
  Status index_nodes() {
    for (NodeIndex i = 0; i < recs_.size(); ++i) {
      const NodeRecord& r = recs_[i];
      auto [it, fresh] = by_id_.emplace(r.id, i);
      if (!fresh)
        return input_error(r.at, "duplicate node id \"" + r.id + "\" (first at " + recs_[it->second].at.str() + ")");
      auto [git, gfresh] = by_guid_.emplace(r.guid, i);
      if (!gfresh) {
        return input_error(r.at, "node \"" + r.id + "\" gets GUID " + hex(r.guid) + " already used by \"" +
                                     recs_[git->second].id + "\" (check switchguid=/caguid= lines)");
      }
      if (Status st = claim_port_guids(r, i); !st.ok()) return st;
      lines_.emplace_back(r.num_ports + 1, nullptr);
      for (const PortLine& pl : r.lines) {
        if (pl.port < 1 || pl.port > r.num_ports) {
          return input_error(pl.at, "port " + std::to_string(pl.port) + " outside 1.." + std::to_string(r.num_ports) +
                                        " of \"" + r.id + "\"");
        }
        if (lines_[i][pl.port] != nullptr) {
          return input_error(pl.at, "port " + end_name(r.id, pl.port) + " listed twice (first at " +
                                        lines_[i][pl.port]->at.str() + ")");
        }
        lines_[i][pl.port] = &pl;
      }
    }
    return Ok{};
  }

  // A CA port's PortGUID: in ibnetdiscover output the one printed for it ("[1](guid)": on ConnectX-4 and
  // later it is the node GUID), else the node GUID plus the port number, as ibsim numbers them (ibsim
  // ignores a printed one). A switch has one, port 0's.
  static Guid port_guid_of(const NodeRecord& r, unsigned p) {
    if (r.type == NodeType::kSwitch) return r.guid;
    if (p == 0) return 0;
    for (const PortLine& pl : r.lines) {
      if (r.discovered && pl.port == p && pl.port_guid) return *pl.port_guid;
    }
    return r.guid + p;
  }

  // A PortGUID names one port of the subnet (guid2lid and PathRecords key on it): a caguid= line can land on
  // another node's ports, or wrap past 2^64.
  Status claim_port_guids(const NodeRecord& r, NodeIndex i) {
    const bool is_switch = r.type == NodeType::kSwitch;
    const unsigned first = is_switch ? 0 : 1;
    const unsigned last = is_switch ? 0 : r.num_ports;
    for (unsigned p = first; p <= last; ++p) {
      const Guid guid = port_guid_of(r, p);
      const bool counted = !is_switch && guid == r.guid + p;  // not printed: node GUID + port
      if (guid == 0 || (counted && guid < r.guid)) {
        return input_error(r.at, "node \"" + r.id + "\": " +
                                     (counted ? "GUID " + hex(r.guid) + " leaves no room for the PortGUID of port " +
                                                    std::to_string(p) + " (it would wrap past 0xffffffffffffffff)"
                                              : "port " + std::to_string(p) + " has PortGUID 0"));
      }
      auto [it, fresh] = by_port_guid_.try_emplace(guid, i, static_cast<PortNum>(p));
      if (!fresh) {
        const NodeRecord& other = recs_[it->second.first];
        return input_error(r.at, "port " + end_name(r.id, static_cast<PortNum>(p)) + " gets PortGUID " + hex(guid) +
                                     " already used by port " + end_name(other.id, it->second.second) +
                                     " (check switchguid=/caguid= lines)");
      }
    }
    return Ok{};
  }

  Node make_node(const NodeRecord& r) const {
    Node n;
    n.type = r.type;
    n.num_ports = static_cast<PortNum>(r.num_ports);
    n.description = r.description;
    n.ports.resize(r.num_ports + 1);
    n.guid = r.guid;
    n.system_image_guid = r.guid;
    for (std::size_t p = 0; p < n.ports.size(); ++p) n.ports[p].guid = port_guid_of(r, static_cast<unsigned>(p));
    if (n.is_switch()) {
      n.lft_cap = kIbsimLinearFdbCap;
      n.ports[0].state = PortState::kActive;  // switch port 0 is always up
      n.ports[0].phys_state = 5;
      n.ports[0].lid = r.port0_lid;
      n.ports[0].lmc = r.port0_lmc;
    }
    for (const PortLine& pl : r.lines) {
      n.ports[pl.port].lid = pl.own_lid;
      n.ports[pl.port].lmc = pl.own_lmc;
    }
    return n;
  }

  // Checks the far end lists this end back, then cables both ports once.
  Status link(NodeIndex a, const PortLine& pl) {
    const NodeRecord& ra = recs_[a];
    auto it = by_id_.find(pl.peer_id);
    if (it == by_id_.end()) return input_error(pl.peer_at, "unknown node \"" + pl.peer_id + "\"");
    const NodeIndex b = it->second;
    const NodeRecord& rb = recs_[b];
    if (pl.peer_port < 1 || pl.peer_port > rb.num_ports) {
      return input_error(pl.peer_port_at, "port " + std::to_string(pl.peer_port) + " outside 1.." +
                                              std::to_string(rb.num_ports) + " of \"" + rb.id + "\"");
    }
    // A cable from a node back to itself (same port or another one) carries no traffic a routing engine
    // could use, and ibsim would loop directed-route SMPs through it; refuse it like any other miswiring.
    if (a == b) {
      return input_error(pl.at, "port " + end_name(ra.id, pl.port) + " is cabled to " +
                                    (pl.port == pl.peer_port ? std::string("itself")
                                                             : "port " + std::to_string(pl.peer_port) +
                                                                   " of the same node (a loopback cable)"));
    }
    const PortLine* back = lines_[b][pl.peer_port];
    if (back == nullptr) {
      return input_error(pl.at, "one-sided link " + end_name(ra.id, pl.port) + " -> " + end_name(rb.id, pl.peer_port) +
                                    ": \"" + rb.id + "\" has no line for port " + std::to_string(pl.peer_port));
    }
    if (back->peer_id != ra.id || back->peer_port != pl.port) {
      return input_error(pl.at, "contradictory link " + end_name(ra.id, pl.port) + " -> " +
                                    end_name(rb.id, pl.peer_port) + ", but " + back->at.str() + " says " +
                                    end_name(rb.id, pl.peer_port) + " -> " + end_name(back->peer_id, back->peer_port));
    }
    if (b < a) return Ok{};  // cabled when the other end was read
    const unsigned width = meet(pl.rate.width_mask, back->rate.width_mask, 2);
    const unsigned speed = meet(pl.rate.speed_mask, back->rate.speed_mask, 1);
    if (width == 0 || speed == 0) {
      return input_error(back->at, "link " + end_name(ra.id, pl.port) + " <-> " + end_name(rb.id, pl.peer_port) +
                                       ": the two ends share no link " + (width == 0 ? "width" : "speed") +
                                       " (ibsim refuses this)");
    }
    Status st = topo_.connect(a, static_cast<PortNum>(pl.port), b, static_cast<PortNum>(pl.peer_port));
    if (!st.ok()) return st.error().with_context(pl.at.str());
    for (auto [n, p] : {std::pair{a, pl.port}, std::pair{b, pl.peer_port}}) {
      Port& port = topo_.mutable_node(n).ports[p];
      port.state = PortState::kActive;  // offline topologies are planned as if every cable were up
      port.phys_state = 5;              // LinkUp
      port.link_width_active = best_width(width);
      port.link_speed_active = best_speed(speed);
    }
    return Ok{};
  }

  // The SM goes where ibsim attaches its first client: the first CA listed, else the first node.
  void choose_sm() {
    if (topo_.size() == 0) return;
    NodeIndex sm = 0;
    for (NodeIndex i : topo_.cas()) {
      if (topo_.node(i).type == NodeType::kCa) {
        sm = i;
        break;
      }
    }
    topo_.sm_node = sm;
    topo_.sm_port = 0;
    const Node& n = topo_.node(sm);
    if (n.is_switch()) return;
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      if (n.ports[p].connected()) {
        topo_.sm_port = p;
        return;
      }
    }
    topo_.sm_port = 1;
  }

  std::vector<NodeRecord>& recs_;
  Topology topo_;
  std::unordered_map<std::string, NodeIndex> by_id_;
  std::unordered_map<Guid, NodeIndex> by_guid_;
  std::unordered_map<Guid, std::pair<NodeIndex, PortNum>> by_port_guid_;  // PortGUID -> (record, port)
  std::vector<std::vector<const PortLine*>> lines_;
};

}  // namespace

Result<Topology> parse_netfile(std::string_view text, const std::string& name,
                               const NetfileIncludeReader& read_include) {
  std::vector<NodeRecord> recs;
  Status st = netfile::parse_records(text, name, read_include, recs);
  if (!st.ok()) return st.error();
  if (recs.empty()) return make_error(ErrorCode::kInvalidInput, name + ": no nodes");
  return Builder(recs).build();
}

}  // namespace smd
