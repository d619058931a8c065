// FakeFabric: an SmpTransport that answers SMPs from a Topology the way a fabric's SMAs would
// (directed-route forwarding, NodeInfo/NodeDescription/PortInfo/SwitchInfo/LFT Get and Set, the
// Init -> Armed -> Active rules ibsim enforces), with seeded SMP loss. It lets discovery and the
// sweep be tested without ibsim; ibsim itself is the witness in tests/integration.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <random>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "mad/codec/port_info.h"
#include "mad/transport/transport.h"
#include "tests/unit/smd/real_sma.h"
#include "routing/model/topology.h"

// Held by reference; fake_fabric.cpp posts the answers and includes Asio itself.
namespace boost::asio {
class io_context;
}  // namespace boost::asio

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
  /// Report `guid` as the PortGUID of every port of node `n` (duplicate-PortGUID tests).
  void override_port_guid(NodeIndex n, Guid guid) { port_guid_override_[n] = guid; }
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
  /// Node `n` answers NodeInfo with node `of`'s NodeGUID, SystemImageGUID and PortGUIDs: a perfect clone.
  void impersonate(NodeIndex n, NodeIndex of) { impersonate_[n] = of; }
  /// Make node `n` never answer; speak(n) undoes it.
  void silence(NodeIndex n) { silent_.push_back(n); }
  void speak(NodeIndex n) { std::erase(silent_, n); }

  // Impossible or inconsistent values an SMA could report (tests/unit/smd/impossible_values_test.cpp).
  /// NodeInfo of node `n` reports this NumPorts (the node still forwards over its real ports).
  void override_num_ports(NodeIndex n, unsigned num_ports) { num_ports_override_[n] = num_ports; }
  /// NodeInfo of node `n` reports this LocalPortNum whichever port the SMP came in by.
  void override_local_port(NodeIndex n, PortNum port) { local_port_override_[n] = port; }
  /// PortInfo Get of port `p` of node `n` reports Down (LinkDown), although the link forwards SMPs.
  void report_port_down(NodeIndex n, PortNum p) { reported_down_.push_back({n, p}); }
  /// Port `p` of node `n` ignores the LID and LMC of every PortInfo Set (it keeps what it holds).
  void stick_lid(NodeIndex n, PortNum p) { stuck_lid_.push_back({n, p}); }
  /// Start port `p` of node `n` in `state` (1 Down .. 4 Active) holding `lid`.
  void set_port(NodeIndex n, PortNum p, std::uint8_t state, std::uint16_t lid) {
    ports_[n][p].state = state;
    ports_[n][p].lid = lid;
  }

  /// Take the cable at port `p` of node `n` down at both ends, as ibsim's console `Unlink` does: both
  /// ports report Down, SMPs no longer cross it, and each switch end sets PortStateChange.
  void unlink(NodeIndex n, PortNum p);
  /// Bring that cable back (ibsim's `ReLink`): both ends Init, PortStateChange set on each switch end.
  void relink(NodeIndex n, PortNum p);
  /// Port `p` of node `n` holds PortPhysicalState Disabled (a PortInfo Set wrote it; Polling clears it).
  bool phys_disabled(NodeIndex n, PortNum p) const { return ports_[n][p].phys_disabled; }
  /// Switch `n` reboots with its links up: its LFT is empty (every entry 0xFF), LinearFDBTop 0 and its
  /// port 0 has no LID, as after a power cycle.
  void reset_switch(NodeIndex n) {
    lft_[n].assign(lft_[n].size(), 0xFF);
    lft_top_[n] = 0;
    ports_[n][0].lid = 0;
    mft_[n].clear();
    mft_top_[n] = 0;
    life_time_[n] = 0;
    for (PortSim& port : ports_[n]) port.hoq_life = 0;
  }

  /// Give every node a P_Key table: NodeInfo PartitionCap `ca_cap` on CAs and `sw_cap` on switches,
  /// SwitchInfo PartitionEnforcementCap `enf_cap`; PortInfo CapabilityMask reports
  /// IsClientReregistrationSupported. Without this call the caps are 0 (no tables), as before.
  void enable_partitions(std::uint16_t ca_cap = 64, std::uint16_t sw_cap = 8, std::uint16_t enf_cap = 64) {
    ca_pkey_cap_ = ca_cap;
    sw_pkey_cap_ = sw_cap;
    enf_cap_ = enf_cap;
  }
  /// Entry `index` of the P_Key table of port `p` of node `n` (0 when never written).
  std::uint16_t pkey(NodeIndex n, PortNum p, std::size_t index) const;
  /// P_KeyTable block Sets that reached the fabric.
  unsigned pkey_block_sets() const { return pkey_block_sets_; }
  /// PortInfo PartitionEnforcementInbound/Outbound of port `p` of node `n`.
  bool enforce_in(NodeIndex n, PortNum p) const { return ports_[n][p].enforce_in; }
  bool enforce_out(NodeIndex n, PortNum p) const { return ports_[n][p].enforce_out; }
  /// PortInfo Sets with ClientReregister that reached port `p` of node `n`.
  unsigned reregisters(NodeIndex n, PortNum p) const { return ports_[n][p].reregisters; }

  // SLtoVLMappingTable and VLArbitration (IBA 14.2.5.8, 14.2.5.9), stored as ibsim stores them (not
  // enforced). Default SL2VL SL i -> VL i, SL15 -> VL7; VLArb entries start zero.
  /// PortInfo VLArbitrationHighCap / LowCap of every port, IsSLMappingSupported on CA ports, and SwitchInfo
  /// OptimizedSLtoVLMappingProgramming `optimized` (bit 16 / 17 modifiers honoured when non-zero).
  void enable_qos(std::uint8_t high_cap = 8, std::uint8_t low_cap = 8, std::uint8_t optimized = 0) {
    vlarb_high_cap_ = high_cap;
    vlarb_low_cap_ = low_cap;
    sl2vl_optimized_ = optimized;
  }
  /// Port `p` of node `n` reports this VLCap (4 = VL0-7 otherwise).
  void set_vl_cap(NodeIndex n, PortNum p, std::uint8_t cap) { vl_cap_[{n, p}] = cap; }
  /// The SL2VL table of switch (in, out), or of CA port `out` (in 0).
  std::array<std::uint8_t, 16> sl2vl(NodeIndex n, PortNum in, PortNum out) const;
  /// VLArbitration block `block` (1..4) of port `p`, as 32 (VL, weight) byte pairs.
  std::array<std::uint8_t, 64> vlarb(NodeIndex n, PortNum p, unsigned block) const;
  std::uint8_t vl_high_limit(NodeIndex n, PortNum p) const { return ports_[n][p].vl_high_limit; }
  std::uint8_t operational_vls(NodeIndex n, PortNum p) const { return ports_[n][p].operational_vls; }
  /// (node, attribute modifier) of every SL2VL / VLArb Set that reached the fabric, in arrival order.
  const std::vector<std::pair<NodeIndex, std::uint32_t>>& sl2vl_sets() const { return sl2vl_sets_; }
  const std::vector<std::pair<NodeIndex, std::uint32_t>>& vlarb_sets() const { return vlarb_sets_; }

  // MulticastForwardingTable (IBA 14.2.5.11), as ibsim keeps it: switches report MulticastFDBCap 1024;
  // a (block, position) beyond the cap or the switch's ports reads as zeros and ignores a Set.
  /// Switch `n` reports this MulticastFDBCap.
  void set_mft_cap(NodeIndex n, std::uint16_t cap) { mft_cap_[n] = cap; }
  /// Switch `n` honours MulticastFDBTop (CapabilityMask bit 30 on its port 0; ibsim's switches do not).
  void support_mft_top(NodeIndex n) { mft_top_supported_[n] = true; }
  /// Port mask of `mlid` at `position` on switch `n`.
  std::uint16_t mft_mask(NodeIndex n, std::uint16_t mlid, unsigned position) const;
  std::uint16_t mft_top(NodeIndex n) const { return mft_top_[n]; }
  /// MFT (block, position) Sets that reached any switch.
  unsigned mft_block_sets() const { return mft_block_sets_; }

  // The PortInfo fields the SM owns besides addressing (smd/fabric/port_fields.h) and SwitchInfo
  // LifeTimeValue. By default every port stores them as a real SMA does: LinkWidthEnabled 255 and
  // LinkSpeedEnabled 15 become what the port supports (1x|4x = 3, SDR = 1); ports start with HOQLife,
  // VLStallCount, SubnetTimeOut, MasterSMSL and the thresholds 0, LinkWidthEnabled 4x (2).
  /// Ports answer as ibsim's do: SubnetTimeOut (31), MasterSMSL (0), VLStallCount (7) and the error
  /// thresholds (0) read as fixed values whatever is written, and a width or speed code that is no mask
  /// (255, 15) is ignored. HOQLife and LifeTimeValue are stored.
  void answer_port_fields_like_ibsim() { ibsim_fields_ = true; }
  /// Port `p` of node `n` ignores HOQLife in Sets (reads what it held): a port that does not take it.
  void stick_hoq_life(NodeIndex n, PortNum p) { stuck_hoq_.push_back({n, p}); }
  /// Set a port's fields behind the SM's back (another tool, a reset).
  void set_hoq_life(NodeIndex n, PortNum p, std::uint8_t v) { ports_[n][p].hoq_life = v; }
  void set_subnet_timeout(NodeIndex n, PortNum p, std::uint8_t v) { ports_[n][p].subnet_timeout = v; }
  std::uint8_t hoq_life(NodeIndex n, PortNum p) const { return ports_[n][p].hoq_life; }
  std::uint8_t vl_stall_count(NodeIndex n, PortNum p) const { return ports_[n][p].vl_stall_count; }
  std::uint8_t subnet_timeout(NodeIndex n, PortNum p) const { return ports_[n][p].subnet_timeout; }
  std::uint8_t master_sm_sl(NodeIndex n, PortNum p) const { return ports_[n][p].master_sm_sl; }
  std::uint8_t local_phy_errors(NodeIndex n, PortNum p) const { return ports_[n][p].local_phy_errors; }
  std::uint8_t overrun_errors(NodeIndex n, PortNum p) const { return ports_[n][p].overrun_errors; }
  std::uint8_t link_width_enabled(NodeIndex n, PortNum p) const { return ports_[n][p].link_width_enabled; }
  std::uint8_t link_speed_enabled(NodeIndex n, PortNum p) const { return ports_[n][p].link_speed_enabled; }
  std::uint8_t life_time_value(NodeIndex n) const { return life_time_[n]; }
  // Real devices (real_sma.h) where ibsim is lenient.
  /// From now on every node answers as a real device does: CA ports and switch port 0 advertise
  /// IsExtendedSpeedsSupported (switch external ports report CapabilityMask 0, as IBA and ibsim have it);
  /// LinkSpeedExt* (and with `caps.xdr` CapabilityMask2 IsExtendedSpeeds2Supported and LinkSpeedExt2*)
  /// read as 0 and LinkSpeedExtEnabled is ignored unless the SMP carries modifier bit 31; ports support
  /// `caps` (LinkSpeedEnabled and the width enable start as supported); switches report LinearFDBCap
  /// 49152 and MulticastFDBCap 4096; P_Key tables as enable_partitions(128, 8, 32) unless set before; a Set out of range (real_sma.h) or an LFT/MFT/P_Key block beyond the
  /// caps is refused with status 0x1C and changes nothing.
  void model_real_devices(RealPortCaps caps = {});
  /// PortInfo Gets that reached any port, and those of them with modifier bit 31.
  unsigned port_info_gets() const { return port_info_gets_; }
  unsigned port_info_gets_extended() const { return port_info_gets_extended_; }
  /// Sets refused with status 0x1C by the real-device model, and the reason of the first.
  unsigned refused_sets() const { return refused_sets_; }
  const std::string& first_refusal() const { return first_refusal_; }
  std::uint8_t link_speed_ext_enabled(NodeIndex n, PortNum p) const { return ports_[n][p].link_speed_ext_enabled; }
  /// PortInfo Sets that reached any port, and SwitchInfo Sets that reached any switch.
  unsigned port_info_sets() const { return port_info_sets_; }
  unsigned switch_info_sets() const { return switch_info_sets_; }

  // What the fabric now holds, for assertions.
  std::uint16_t lid(NodeIndex n, PortNum p) const { return ports_[n][p].lid; }
  std::uint8_t lmc(NodeIndex n, PortNum p) const { return ports_[n][p].lmc; }
  std::uint8_t state(NodeIndex n, PortNum p) const { return ports_[n][p].state; }
  std::uint16_t master_sm_lid(NodeIndex n, PortNum p) const { return ports_[n][p].master_sm_lid; }
  std::uint16_t lft_top(NodeIndex n) const { return lft_top_[n]; }
  bool port_state_change(NodeIndex n) const { return psc_[n]; }
  std::uint8_t lft(NodeIndex n, std::uint16_t lid) const { return lid < lft_[n].size() ? lft_[n][lid] : 0xFF; }
  unsigned lft_block_sets() const { return lft_block_sets_; }
  std::uint64_t m_key(NodeIndex n, PortNum p) const { return ports_[n][p].m_key; }
  std::uint8_t m_key_protect(NodeIndex n, PortNum p) const { return ports_[n][p].m_key_protect; }
  std::uint16_t m_key_lease_period(NodeIndex n, PortNum p) const { return ports_[n][p].m_key_lease_period; }
  /// SMPs an SMA discarded for a wrong M_Key (IBA 14.2.4.1; a real SMA would also send trap 256).
  unsigned m_key_violations() const { return m_key_violations_; }
  /// Give port `p` of node `n` (a CA port or switch port 0) an M_Key behind the SM's back, as another SM
  /// (or an earlier run whose state files are gone) left it.
  void set_m_key(NodeIndex n, PortNum p, std::uint64_t key, std::uint8_t protect, std::uint16_t lease_s) {
    ports_[n][p].m_key = key;
    ports_[n][p].m_key_protect = protect;
    ports_[n][p].m_key_lease_period = lease_s;
    ports_[n][p].lease_ends.reset();
  }
  /// Let `seconds` pass on every SMA's M_Key lease timer (IBA 14.2.4.2): a discarded SMP starts the
  /// timer of its port (when M_KeyLeasePeriod is not 0), an SMP with the right key stops it, and when it
  /// runs out the port's MKeyProtectBits become 0.
  void advance_clock(std::uint64_t seconds) { clock_s_ += seconds; }
  /// Whether port `p` of node `n` has a lease timer running.
  bool lease_running(NodeIndex n, PortNum p) const { return ports_[n][p].lease_ends.has_value(); }
  /// LFT block Sets that reached node `n`.
  unsigned lft_block_sets(NodeIndex n) const { return n < lft_sets_per_node_.size() ? lft_sets_per_node_[n] : 0; }

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
    std::optional<std::uint64_t> lease_ends;  // clock_s_ at which MKeyProtectBits drop to 0
    bool enforce_in = false, enforce_out = false;
    unsigned reregisters = 0;
    std::uint8_t vl_high_limit = 0;
    std::uint8_t hoq_life = 0, vl_stall_count = 0, subnet_timeout = 0, master_sm_sl = 0;
    std::uint8_t local_phy_errors = 0, overrun_errors = 0;
    std::uint8_t link_width_enabled = 2, link_speed_enabled = 1;
    std::uint8_t link_speed_ext_enabled = 0;  // real devices: what LinkSpeedExtEnabled holds
    bool phys_disabled = false;               // PortPhysicalState Disabled written: the link stays down
    std::vector<std::uint16_t> pkeys;  // P_Key table, grown as blocks are written
  };
  struct Target {
    NodeIndex node = kNoNode;
    PortNum port = 0;  // port the SMP arrived on (0 at a switch reached as the SM's node)
  };
  Target resolve(const mad::DrPath& path) const;
  // A PortInfo Set's SM-owned fields into the port, as a real SMA (or, answer_port_fields_like_ibsim, ibsim).
  void store_port_fields(PortSim& s, const mad::PortInfo& in, bool hoq_stuck) const;
  bool answer(const mad::SmpRequest& req, mad::SmpReply& reply);
  bool is_silent(NodeIndex n) const;
  static bool listed(const std::vector<std::pair<NodeIndex, PortNum>>& list, NodeIndex n, PortNum p);
  bool lost_on_hops(unsigned hops);
  bool loses_first_answer(const mad::SmpRequest& req) const;

  boost::asio::io_context& io_;
  const Topology& topo_;
  unsigned retries_;
  std::vector<std::vector<PortSim>> ports_;
  std::vector<std::vector<std::uint8_t>> lft_;
  std::vector<std::uint16_t> lft_top_;
  std::vector<std::map<std::uint32_t, std::array<std::uint8_t, 64>>> mft_;  // [node][attr_mod]
  std::vector<std::uint16_t> mft_cap_;
  std::vector<std::uint16_t> mft_top_;
  std::vector<bool> mft_top_supported_;
  unsigned mft_block_sets_ = 0;
  std::vector<bool> psc_;                // SwitchInfo:PortStateChange per node
  std::vector<std::uint8_t> life_time_;  // SwitchInfo:LifeTimeValue per node
  bool ibsim_fields_ = false;
  std::vector<std::pair<NodeIndex, PortNum>> stuck_hoq_;
  unsigned port_info_sets_ = 0, switch_info_sets_ = 0;
  std::optional<RealPortCaps> real_;  // model_real_devices()
  unsigned port_info_gets_ = 0, port_info_gets_extended_ = 0, refused_sets_ = 0;
  std::string first_refusal_;
  // A Set the real-device model refuses: status 0x1C, counted, the first reason kept.
  void refuse(mad::SmpReply& reply, const std::string& why);
  std::uint16_t linear_fdb_cap(NodeIndex n) const;
  std::unordered_map<NodeIndex, Guid> guid_override_;
  std::unordered_map<NodeIndex, Guid> port_guid_override_;
  std::vector<NodeIndex> silent_;
  std::unordered_map<NodeIndex, NodeIndex> impersonate_;
  std::unordered_map<NodeIndex, unsigned> num_ports_override_;
  std::unordered_map<NodeIndex, PortNum> local_port_override_;
  std::vector<std::pair<NodeIndex, PortNum>> reported_down_;
  std::vector<std::pair<NodeIndex, PortNum>> stuck_lid_;
  std::vector<unsigned> lft_sets_per_node_;
  std::unordered_map<NodeIndex, unsigned> drop_next_;
  double loss_ = 0;
  double hop_loss_ = 0;
  std::vector<std::pair<std::uint16_t, mad::Method>> lose_first_;
  std::mt19937 rng_{1};
  mad::TransportStats stats_;
  unsigned lft_block_sets_ = 0;
  unsigned m_key_violations_ = 0;
  std::uint64_t clock_s_ = 0;  // advance_clock()
  std::uint16_t ca_pkey_cap_ = 0, sw_pkey_cap_ = 0, enf_cap_ = 0;
  unsigned pkey_block_sets_ = 0;
  std::uint8_t vlarb_high_cap_ = 0, vlarb_low_cap_ = 0, sl2vl_optimized_ = 0;
  std::map<std::pair<NodeIndex, PortNum>, std::uint8_t> vl_cap_;
  std::map<std::tuple<NodeIndex, PortNum, PortNum>, std::array<std::uint8_t, 16>> sl2vl_;   // (node, in, out)
  std::map<std::tuple<NodeIndex, PortNum, unsigned>, std::array<std::uint8_t, 64>> vlarb_;  // (node, port, block)
  std::vector<std::pair<NodeIndex, std::uint32_t>> sl2vl_sets_, vlarb_sets_;
};

}  // namespace smd::test
