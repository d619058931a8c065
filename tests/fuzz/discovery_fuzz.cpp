// Discovery (smd/sweep/discovery.cpp + discovery_vet.cpp) against SMAs whose every answer the fuzzer writes:
// node types, NumPorts (0 and 255 included), GUIDs from a small pool (so duplicates and loops are
// common), LocalPortNum, port states, LIDs, link widths, LinearFDBCap, silence. Whatever they say, the
// sweep must end with a consistent fabric: every cable on both ends and agreed by both ends' PortInfo,
// no switch with LinearFDBCap 0, no path above 63 hops, every node reachable from the SM, one entry
// per node in every per-node vector. Small results are then given LIDs and routed, and the same SMAs
// answer an incremental sweep (smd/sweep/incremental_discovery.cpp), held to the same properties.
#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <deque>

#include "fuzz_util.h"
#include "mad/codec/node_description.h"
#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "routing/chain/registry.h"
#include "routing/lids/lid_assign.h"
#include "smd/sweep/discovery.h"
#include "smd/sweep/incremental_discovery.h"

namespace {

using namespace smd;

constexpr unsigned kMaxAnswers = 2048;  // then every SMA falls silent: bounds the sweep
constexpr std::size_t kRouteAtMost = 48;

// Answers each SMP from the next bytes of the input; a control byte ending in 0xF means no answer.
class ScriptedSmas : public mad::SmpTransport {
 public:
  ScriptedSmas(boost::asio::io_context& io, const std::uint8_t* data, std::size_t size)
      : io_(io), data_(data), size_(size) {}

  void submit(mad::SmpRequest req, mad::SmpCallback done) override {
    mad::SmpReply r;
    r.attempts = 1;
    ++stats_.sent;
    if (answers_ < kMaxAnswers && answer(req, r)) {
      ++answers_;
      r.outcome = mad::SmpOutcome::kOk;
      ++stats_.received;
    } else {
      r.outcome = mad::SmpOutcome::kTimeout;
      ++stats_.timeouts;
    }
    boost::asio::post(io_, [done = std::move(done), r] { done(r); });
  }
  std::size_t pending() const override { return 0; }
  mad::TransportStats stats() const override { return stats_; }

 private:
  std::uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }

  bool answer(const mad::SmpRequest& req, mad::SmpReply& r) {
    if (pos_ >= size_) return false;
    const std::uint8_t control = next();
    if ((control & 0x0F) == 0x0F) return false;
    switch (req.attr_id) {
      case mad::attr::kNodeInfo: {
        mad::NodeInfo ni;
        ni.base_version = ni.class_version = 1;
        ni.node_type = static_cast<std::uint8_t>((control >> 4) & 3);  // 0 (invalid), CA, switch, router
        ni.num_ports = next();
        const std::uint8_t id = next();
        ni.node_guid = 0x1000 + (id & 0x1F);
        ni.system_image_guid = ni.node_guid + (id >> 7);  // mostly equal, sometimes a second node's
        ni.local_port_num = next();
        ni.port_guid = ni.node_type == 2 ? ni.node_guid : (ni.node_guid << 8) + ((id & 0x40) ? 0 : ni.local_port_num);
        ni.encode(r.data);
        return true;
      }
      case mad::attr::kPortInfo: {
        mad::PortInfo pi;
        pi.port_state = static_cast<std::uint8_t>(control >> 4);  // 0..15: Down..Active and nonsense
        const std::uint8_t b = next();
        pi.lid = static_cast<std::uint16_t>(b & 0x80 ? 0xC000 | b : b);  // 0, unicast or multicast
        pi.lmc = static_cast<std::uint8_t>(b & 0x7);
        pi.port_physical_state = 5;
        pi.link_width_active = (b & 0x40) ? 1 : 2;
        pi.link_speed_active = (b & 0x20) ? 2 : 1;
        pi.local_port_num = static_cast<std::uint8_t>(req.attr_mod);
        pi.encode(r.data);
        return true;
      }
      case mad::attr::kSwitchInfo: {
        mad::SwitchInfo si;
        si.linear_fdb_cap = static_cast<std::uint16_t>(next() << 8);  // 0 .. 0xFF00
        si.linear_fdb_top = static_cast<std::uint16_t>(control << 4);
        si.encode(r.data);
        return true;
      }
      case mad::attr::kNodeDescription: {
        mad::NodeDescription nd;
        nd.text = "node-" + std::to_string(control);
        nd.encode(r.data);
        return true;
      }
      default: return false;
    }
  }

  boost::asio::io_context& io_;
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  unsigned answers_ = 0;
  mad::TransportStats stats_;
};

void check_discovered(const ObservedFabric& d) {
  using fuzz::check;
  const Topology& t = *d.topo;
  check(d.nodes.size() == t.size(), "one record per node");
  std::vector<bool> reached(t.size(), false);
  std::deque<NodeIndex> queue;
  if (t.size() > 0) {
    check(t.sm_node < t.size(), "the SM's node is in the fabric");
    reached[t.sm_node] = true;
    queue.push_back(t.sm_node);
  }
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    check(node.num_ports >= 1 && node.num_ports <= 254, "NumPorts 1..254");
    check(node.ports.size() == node.num_ports + 1u && d.nodes[n].ports.size() == node.ports.size(),
          "per-port records sized NumPorts + 1");
    check(node.dr_path.size() <= mad::kMaxHops, "paths of at most 63 hops");
    check(t.find(node.guid) == n, "GUIDs unique");
    if (node.is_switch() && n != t.sm_node && d.nodes[n].switch_info) {
      check(d.nodes[n].switch_info->linear_fdb_cap != 0, "no switch with LinearFDBCap 0");
    }
    for (const Port& p : node.ports) {
      if (!p.connected()) continue;
      check(p.num != 0 && p.peer < t.size() && p.peer != n, "a cable joins two nodes' external ports");
      const Port& back = t.node(p.peer).ports.at(p.peer_port);
      check(back.peer == n && back.peer_port == p.num, "every cable on both ends");
      if (d.port_info(n, p.num) != nullptr && d.port_info(p.peer, p.peer_port) != nullptr) {
        const mad::PortInfo& a = *d.port_info(n, p.num);
        const mad::PortInfo& b = *d.port_info(p.peer, p.peer_port);
        check(a.port_state >= 2 && a.port_state <= 4 && b.port_state >= 2 && b.port_state <= 4, "cables are live");
        check(a.link_width_active == b.link_width_active, "both ends agree on the width");
      }
    }
  }
  while (!queue.empty()) {
    const NodeIndex n = queue.front();
    queue.pop_front();
    if (n != t.sm_node && !t.node(n).is_switch()) continue;
    for (const Port& p : t.node(n).ports) {
      if (p.connected() && !reached[p.peer]) reached[p.peer] = true, queue.push_back(p.peer);
    }
  }
  for (NodeIndex n = 0; n < t.size(); ++n) check(reached[n], "every node kept is reachable from the SM");
}

// Every node's directed path, followed over the fabric's cables from the SM's node, ends at that node.
void check_paths_lead_home(const Topology& t) {
  using fuzz::check;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    NodeIndex at = t.sm_node;
    for (std::size_t i = 0; i < t.node(n).dr_path.size(); ++i) {
      const Node& node = t.node(at);
      const std::uint8_t out = t.node(n).dr_path[i];
      check(i == 0 || node.is_switch(), "a directed path leaves only switches after its first hop");
      check(out >= 1 && out <= node.num_ports && node.ports[out].connected(), "a directed path follows cables");
      at = node.ports[out].peer;
    }
    check(at == n, "a directed path ends at its node");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // a problem is logged per bad answer; the fuzzer needs none of it
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  ScriptedSmas smas(io, data, size);
  SmpBatch batch(io, smas);
  const ObservedFabric d = discover_fabric(batch);
  check_discovered(d);
  // Then the same SMAs answer an incremental sweep after "traps" from up to two switches: whatever they
  // say now, it falls back to a full discovery with a reason, or ends with a consistent fabric.
  if (d.topo->size() > 0 && !d.topo->switches().empty() && discovery_gaps(d) == 0) {
    const auto& sw = d.topo->switches();
    std::vector<Guid> changed;
    for (unsigned i = 0; i < 2 && i < size; ++i) changed.push_back(d.topo->node(sw[data[i] % sw.size()]).guid);
    const IncrementalDiscovery inc = rediscover_changed(batch, d, changed);
    if (inc.ok()) {
      check_discovered(inc.fabric);
      check_paths_lead_home(*inc.fabric.topo);
    } else {
      fuzz::check(!inc.full_sweep_because().empty(), "a fallback says why");
    }
  }
  if (d.topo->size() == 0 || d.topo->size() > kRouteAtMost) return 0;
  auto lids = assign_lids(*d.topo, Guid2Lid{}, LidAssignOptions{});
  if (!lids) return 0;
  (void)route_with_chain({"ftree", "updn", "minhop"}, RoutingOptions{}, *d.topo, *lids);
  return 0;
}
