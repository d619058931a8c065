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
  /// Drop an SMP attempt with probability `share` (0..1) at every hop it crosses, out and back, seeded:
  /// what ibsim's `Error "node"[port] <percent>` does. A request lost on the way out does nothing; one
  /// whose answer is lost on the way back has been carried out (a Set took effect) but is not seen.
  void set_hop_loss(double share, unsigned seed) {
    hop_loss_ = share;
    rng_.seed(seed);
  }
  /// Carry out the first attempt of every request with this attribute and method, then lose its answer.
  void lose_first_answer(std::uint16_t attr_id, mad::Method method) { lose_first_.push_back({attr_id, method}); }
  /// Drop the next `attempts` SMP attempts that reach node `n` (then it answers again).
  void drop_next(NodeIndex n, unsigned attempts) { drop_next_[n] = attempts; }
  /// Make node `n` never answer; speak(n) undoes it.
  void silence(NodeIndex n) { silent_.push_back(n); }
  void speak(NodeIndex n) { std::erase(silent_, n); }

  // What the fabric now holds, for assertions.
  std::uint16_t lid(NodeIndex n, PortNum p) const { return ports_[n][p].lid; }
  std::uint8_t lmc(NodeIndex n, PortNum p) const { return ports_[n][p].lmc; }
  std::uint8_t state(NodeIndex n, PortNum p) const { return ports_[n][p].state; }
  std::uint16_t master_sm_lid(NodeIndex n, PortNum p) const { return ports_[n][p].master_sm_lid; }
  std::uint16_t lft_top(NodeIndex n) const { return lft_top_[n]; }
  std::uint8_t lft(NodeIndex n, std::uint16_t lid) const { return lid < lft_[n].size() ? lft_[n][lid] : 0xFF; }
  unsigned lft_block_sets() const { return lft_block_sets_; }

 private:
  struct PortSim {
    std::uint16_t lid = 0;
    std::uint8_t lmc = 0;
    std::uint8_t state = 1;
    std::uint16_t master_sm_lid = 0;
    std::uint64_t gid_prefix = 0;
    std::uint8_t neighbor_mtu = 0, operational_vls = 0;
  };
  struct Target {
    NodeIndex node = kNoNode;
    PortNum port = 0;  // port the SMP arrived on (0 at a switch reached as the SM's node)
  };
  Target resolve(const mad::DrPath& path) const;
  bool answer(const mad::SmpRequest& req, mad::SmpReply& reply);
  bool is_silent(NodeIndex n) const;
  bool lost_on_hops(unsigned hops);
  bool loses_first_answer(const mad::SmpRequest& req) const;

  boost::asio::io_context& io_;
  const Topology& topo_;
  unsigned retries_;
  std::vector<std::vector<PortSim>> ports_;
  std::vector<std::vector<std::uint8_t>> lft_;
  std::vector<std::uint16_t> lft_top_;
  std::unordered_map<NodeIndex, Guid> guid_override_;
  std::vector<NodeIndex> silent_;
  std::unordered_map<NodeIndex, unsigned> drop_next_;
  double loss_ = 0;
  double hop_loss_ = 0;
  std::vector<std::pair<std::uint16_t, mad::Method>> lose_first_;
  std::mt19937 rng_{1};
  mad::TransportStats stats_;
  unsigned lft_block_sets_ = 0;
};

}  // namespace smd::test
