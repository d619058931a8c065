// FakeFabric: an SmpTransport that answers SMPs from a Topology the way a fabric's SMAs would
// (directed-route forwarding, NodeInfo/NodeDescription/PortInfo/SwitchInfo/LFT Get and Set, the
// Init -> Armed -> Active rules ibsim enforces), with seeded SMP loss. It lets discovery and the
// sweep be tested without ibsim; ibsim itself is the witness in tests/integration.
#pragma once

#include <boost/asio/io_context.hpp>
#include <random>
#include <unordered_map>
#include <vector>

#include "mad/transport.h"
#include "routing/topology.h"

namespace smd::test {

class FakeFabric : public mad::SmpTransport {
 public:
  /// `topo.sm_node`/`sm_port` say where the SM sits. Port states start Init on cabled ports (Down
  /// elsewhere); switch port 0 starts Active; every LID is 0 unless the topology says otherwise.
  FakeFabric(boost::asio::io_context& io, const Topology& topo, unsigned retries = 3);

  void submit(mad::SmpRequest req, mad::SmpCallback done) override;
  std::size_t pending() const override { return 0; }
  mad::TransportStats stats() const override { return stats_; }

  /// Drop this share (0..1) of SMP attempts, seeded.
  void set_loss(double share, unsigned seed) {
    loss_ = share;
    rng_.seed(seed);
  }
  /// Report `guid` instead of the real NodeGUID for node `n` (duplicate-GUID tests).
  void override_guid(NodeIndex n, Guid guid) { guid_override_[n] = guid; }
  /// Make node `n` never answer.
  void silence(NodeIndex n) { silent_.push_back(n); }

  // What the fabric now holds, for assertions.
  std::uint16_t lid(NodeIndex n, PortNum p) const { return ports_[n][p].lid; }
  std::uint8_t lmc(NodeIndex n, PortNum p) const { return ports_[n][p].lmc; }
  std::uint8_t state(NodeIndex n, PortNum p) const { return ports_[n][p].state; }
  std::uint16_t master_sm_lid(NodeIndex n, PortNum p) const { return ports_[n][p].master_sm_lid; }
  std::uint16_t lft_top(NodeIndex n) const { return lft_top_[n]; }
  std::uint8_t lft(NodeIndex n, std::uint16_t lid) const { return lid < lft_[n].size() ? lft_[n][lid] : 0xFF; }
  unsigned lft_block_sets() const { return lft_block_sets_; }
  std::uint64_t m_key(NodeIndex n, PortNum p) const { return ports_[n][p].m_key; }
  std::uint8_t m_key_protect(NodeIndex n, PortNum p) const { return ports_[n][p].m_key_protect; }
  std::uint16_t m_key_lease_period(NodeIndex n, PortNum p) const { return ports_[n][p].m_key_lease_period; }
  /// SMPs an SMA discarded for a wrong M_Key (IBA 14.2.4.1; a real SMA would also send trap 256).
  unsigned m_key_violations() const { return m_key_violations_; }

 private:
  struct PortSim {
    std::uint16_t lid = 0;
    std::uint8_t lmc = 0;
    std::uint8_t state = 1;
    std::uint16_t master_sm_lid = 0;
    std::uint64_t gid_prefix = 0;
    std::uint8_t neighbor_mtu = 0, operational_vls = 0;
    std::uint64_t m_key = 0;  // held by CA ports and switch port 0 (the switch's management port)
    std::uint8_t m_key_protect = 0;
    std::uint16_t m_key_lease_period = 0;
  };
  struct Target {
    NodeIndex node = kNoNode;
    PortNum port = 0;  // port the SMP arrived on (0 at a switch reached as the SM's node)
  };
  Target resolve(const mad::DrPath& path) const;
  bool answer(const mad::SmpRequest& req, mad::SmpReply& reply);
  bool is_silent(NodeIndex n) const;

  boost::asio::io_context& io_;
  const Topology& topo_;
  unsigned retries_;
  std::vector<std::vector<PortSim>> ports_;
  std::vector<std::vector<std::uint8_t>> lft_;
  std::vector<std::uint16_t> lft_top_;
  std::unordered_map<NodeIndex, Guid> guid_override_;
  std::vector<NodeIndex> silent_;
  double loss_ = 0;
  std::mt19937 rng_{1};
  mad::TransportStats stats_;
  unsigned lft_block_sets_ = 0;
  unsigned m_key_violations_ = 0;
};

}  // namespace smd::test
