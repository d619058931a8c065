// The Ethernet L3 Clos that the same cables make: every switch an eBGP router (RFC 7938), a /31 per
// switch-to-switch cable, a /32 loopback per switch, hosts under a per-leaf prefix, and per switch the
// FIB (destination prefix -> ECMP next-hop group) that eBGP installs under its own-AS rule (bgp_fib.h).
// Pure computation: a Topology in, plain structs out; serializing to JSON / frr.conf happens elsewhere
// (routing/roce/frr_writer.h, smd/state/roce_plan_files.h). ASN and address scheme: docs/roce.md.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"
#include "routing/roce/fib.h"

namespace smd::roce {

/// An IPv4 prefix; addr is host-order and has no bits set below the prefix length.
struct Ipv4Prefix {
  std::uint32_t addr = 0;
  std::uint8_t len = 32;
};

/// "10.0.1.2"
std::string format_ipv4(std::uint32_t addr);
/// "10.0.1.0/24"
std::string format_prefix(const Ipv4Prefix& prefix);

/// Address pools (RFC 1918 10/8 split in four): host prefixes, cable /31s, loopback /32s.
inline constexpr Ipv4Prefix kHostPool{0x0A000000u, 9};       // 10.0.0.0/9
inline constexpr Ipv4Prefix kP2pPool{0x0A800000u, 10};       // 10.128.0.0/10
inline constexpr Ipv4Prefix kLoopbackPool{0x0AC00000u, 10};  // 10.192.0.0/10
/// First 4-byte private ASN (RFC 6996: 4200000000-4294967294). ASN = base + tier * kAsnTierStride + group.
inline constexpr std::uint32_t kPrivateAsnBase = 4200000000u;
inline constexpr std::uint32_t kAsnTierStride = 100000u;

/// One switch-to-switch cable seen from one end: a /31, the lower address on the end with the lower
/// (switch index, port).
struct Interface {
  PortNum port = 0;
  std::uint32_t local_ip = 0;
  std::uint32_t peer_ip = 0;
  SwitchIndex peer = kNoSwitch;  ///< dense switch index of the neighbour
  PortNum peer_port = 0;
};

/// A remote destination in a switch's FIB: another switch's loopback or another leaf's host prefix that
/// BGP installs. The next hops are fib().group(owner, dest) (RoutePlan::nexthops resolves them).
struct Route {
  Ipv4Prefix prefix;
  SwitchIndex dest = kNoSwitch;  ///< switch that owns the prefix
  bool loopback = false;         ///< true: dest's loopback /32; false: dest's host prefix
};

/// One router.
struct SwitchPlan {
  NodeIndex node = kNoNode;
  Guid guid = 0;          ///< node GUID: the switch's identity
  std::string name;       ///< NodeDescription, as the fabric gave it (any bytes)
  std::string hostname;   ///< unique, FRR-safe: its hostname and frr directory (switch_names.h)
  std::uint32_t asn = 0;  ///< see docs/roce.md
  std::uint8_t tier = 0;  ///< hops to the nearest leaf (0 = leaf); kNoTier when no leaf is reachable
  std::uint32_t loopback = 0;
  bool has_hosts = false;             ///< a leaf: owns host_prefix and gateway
  Ipv4Prefix host_prefix{};           ///< valid when has_hosts
  std::uint32_t gateway = 0;          ///< first address of host_prefix: the leaf's address toward its hosts
  std::vector<Interface> interfaces;  ///< switch-to-switch cables, port order
  std::vector<Route> routes;          ///< remote prefixes BGP installs (non-empty fib group), by dest switch
};
inline constexpr std::uint8_t kNoTier = 0xFF;

/// One host port (a CA port cabled to a switch). A multi-port CA has one entry per port, each with its
/// own address in the prefix of the leaf it is cabled to (a RoCE NIC port is its own netdev and IP).
struct HostPlan {
  NodeIndex ca = kNoNode;
  PortNum port = 0;
  std::string name;  ///< NodeDescription of the CA
  std::uint32_t ip = 0;
  SwitchIndex leaf = kNoSwitch;
  PortNum leaf_port = 0;
};

/// One next hop of a route: leave by `port` toward switch `neighbor` whose cable address is `neighbor_ip`.
struct NextHop {
  PortNum port = 0;
  SwitchIndex neighbor = kNoSwitch;
  std::uint32_t neighbor_ip = 0;
};

/// The whole plan. switches[] is indexed by dense SwitchIndex (SwitchGraph order = Topology::switches()).
class RoutePlan {
 public:
  /// Build the plan for `topo`. Errors: kInvalidInput when the address pools are exhausted (more than
  /// 2^21 switch cables or 2^22 switches, or host prefixes not fitting 10.0.0.0/9).
  static Result<RoutePlan> build(const Topology& topo);
  /// This plan once cables are gone and BGP has converged with every switch's configuration unchanged
  /// (`smd plan --fail`): `reduced` is this plan's topology without some cables (drained_topology: the
  /// same nodes, so the same switch order). ASNs, loopbacks, tiers, host prefixes and the addresses of
  /// the hosts and cables that remain are this plan's (addresses do not move when a neighbour fails);
  /// the FIB (own-AS rule over the same ASNs and router-ids), the min-hop groups, the routes and the
  /// interfaces are those of the cables left. A host port whose cable is gone has no entry, so nothing
  /// routes to it. Errors: kInvalidInput when `reduced` has other switches or another switch order.
  Result<RoutePlan> after_loss(const Topology& reduced) const;

  const SwitchGraph& graph() const { return graph_; }
  const HopTable& hops() const { return hops_; }
  /// What BGP installs: the groups under the own-AS rule (bgp_fib.h). Routes, JSON, frr.conf and the
  /// roce-ecmp scheme of the comparison all read this.
  const EcmpTable& fib() const { return fib_; }
  /// Every shortest path: the min-hop groups (fib.h). On a Clos the groups toward leaves equal fib()'s;
  /// the comparison's ib-adaptive scheme uses them as AR groups when the tables carry none.
  const EcmpTable& min_hop() const { return min_hop_; }
  const std::vector<SwitchPlan>& switches() const { return switches_; }
  const std::vector<HostPlan>& hosts() const { return hosts_; }
  /// Index into hosts() of a CA port, -1 if the port has no address.
  long host_index(NodeIndex ca, PortNum port) const;
  /// The next hops of switch s toward switch dest (empty when s == dest or dest is unreachable).
  std::vector<NextHop> nexthops(SwitchIndex s, SwitchIndex dest) const;
  /// Human-readable caveats found while building (e.g. cables between CAs left out).
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  SwitchGraph graph_;
  HopTable hops_;
  EcmpTable fib_;
  EcmpTable min_hop_;
  std::vector<SwitchPlan> switches_;
  std::vector<HostPlan> hosts_;
  /// Notes for the routes the own-AS rule takes away from (or moves off) the shortest paths.
  static void note_own_as_rule(RoutePlan& plan);
  /// build()'s steps. Loopbacks, ASNs, tiers and host prefixes (hosts numbered in leaf port order) of
  /// every switch; kInvalidInput when the host pool runs out.
  static Status address_switches(RoutePlan& plan, const Topology& topo,
                                 const std::vector<std::vector<std::pair<PortNum, NodeIndex>>>& hosts_on,
                                 const std::vector<std::uint8_t>& tier, const std::vector<std::uint32_t>& asn);
  /// One /31 per switch-to-switch cable; kInvalidInput when the /31 pool runs out.
  static Status address_cables(RoutePlan& plan);
  /// The FIB BGP installs over `asn`, and each switch's routes to the others' loopbacks and host prefixes.
  static void install_routes(RoutePlan& plan, const std::vector<std::uint32_t>& asn);

  std::unordered_map<std::uint64_t, std::uint32_t> host_by_port_;  // (ca << 8 | port) -> hosts_ index
  std::vector<std::string> notes_;
};

}  // namespace smd::roce
