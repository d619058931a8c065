// Fabric generators: synthetic Topologies for tests, benchmarks and the smd-fabric tool.
//
// Every generator returns a valid IB graph (at most 254 ports per node, no self links, every cable on
// both ends) with readable descriptions ("leaf-3", "spine-1", "sw-L1-5", "host-17"), cabled ports Active
// at 4x SDR, and switch lft_cap = kIbsimLinearFdbCap. Nodes are added in the order write_netfile emits
// them (host-0 first, then the other hosts, then switches) and GUIDs come from IbsimGuidCounter, so the
// offline topology and ibsim running the written netfile agree on every GUID. The SM sits on host-0
// (sm_node = host-0, sm_port = 1). Hosts have one port unless stated.
// Errors: kInvalidInput naming the parameter when the shape is impossible (zero sizes, too many ports).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/topology.h"

namespace smd {

/// k-ary n-tree (Petrini & Vanneschi 1997): k^n hosts; n levels of k^(n-1) switches, each with 2k
/// ports (the top level uses only its k down ports, ports k+1..2k stay empty so every switch is alike).
/// Switch "sw-L<level>-<i>", level 0 = leaves. Leaf i has hosts i*k .. i*k+k-1 on ports 1..k.
/// Down ports are 1..k, up ports k+1..2k. Links: n*k^n. Limits: k >= 2, n >= 1, 2k <= 254.
Result<Topology> make_kary_ntree(unsigned k, unsigned n);

/// 2-level leaf/spine (folded Clos). Leaf ports: hosts 1..H, then for spine s link j: H + s*P + j + 1.
/// Spine ports: for leaf l link j: l*P + j + 1, then its own hosts. "leaf-<l>", "spine-<s>", hosts numbered
/// leaf by leaf, then spine by spine.
struct LeafSpineSpec {
  unsigned leaves = 4;
  unsigned spines = 2;
  unsigned hosts_per_leaf = 4;
  unsigned links_per_pair = 1;  ///< parallel cables between every leaf and every spine
  /// CAs cabled to each of the first `spines_with_hosts` spines (storage or login nodes on the core
  /// tier, the fabrics OpenSM's dnup is for); 0 = none.
  unsigned hosts_per_spine = 0;
  unsigned spines_with_hosts = 0;
};
Result<Topology> make_leaf_spine(const LeafSpineSpec& spec);

/// 3-level fat tree / Clos built from pods: each pod has `leaves_per_pod` leaves and `aggs_per_pod`
/// aggregation switches (full bipartite leaf<->agg inside the pod); aggregation switch a of every pod
/// connects to cores a*cores_per_agg_group .. +cores_per_agg_group-1 (one cable each). Leaves have
/// `leaf_down_ports` host ports (1..leaf_down_ports) then one up port per agg; the LAST
/// ceil(partial_leaf_fraction * leaves) leaves carry only `partial_hosts` hosts (racks not yet full), the
/// others `hosts_per_leaf` (<= leaf_down_ports). Agg ports: leaves 1..leaves_per_pod, then its cores.
/// Core ports: pod p on port p+1. Names: "leaf-<global>", "agg-<pod>-<a>", "core-<c>"; hosts numbered
/// leaf by leaf. Links: hosts + pods*leaves_per_pod*aggs_per_pod + pods*aggs_per_pod*cores_per_agg_group.
struct FatTree3Spec {
  unsigned pods = 4;
  unsigned leaves_per_pod = 4;
  unsigned aggs_per_pod = 4;
  unsigned cores_per_agg_group = 4;  ///< total cores = aggs_per_pod * cores_per_agg_group
  unsigned leaf_down_ports = 4;
  unsigned hosts_per_leaf = 4;
  double partial_leaf_fraction = 0.0;  ///< 0..1
  unsigned partial_hosts = 0;          ///< hosts on a partly populated leaf (< hosts_per_leaf)
};
Result<Topology> make_fat_tree3(const FatTree3Spec& spec);

/// Torus of switches (1D = ring, 2D, 3D): dims like {4,4}. Switch "sw-<x>-<y>..." at each coordinate,
/// linked to +1 and -1 neighbours in every dimension with wraparound (dimension size 2: one cable
/// between the pair; size 1: none). Switch ports: hosts first (1..H), then for dimension d the "+" port
/// H+2d+1 (to coordinate+1) and the "-" port H+2d+2 (to coordinate-1).
/// Hosts are numbered switch by switch in row-major order (last dimension fastest).
Result<Topology> make_torus(const std::vector<unsigned>& dims, unsigned hosts_per_switch);

/// Mesh: the torus above without its wraparound cables (a switch at the last coordinate of a dimension
/// leaves its "+" port empty, at coordinate 0 its "-" port), same names and port layout, so the ports of
/// dimension 0 come before those of dimension 1 on every switch (the order dimension-order routing
/// corrects them in). Dimensions of size 2 make a hypercube. Errors as make_torus, naming "mesh".
Result<Topology> make_mesh(const std::vector<unsigned>& dims, unsigned hosts_per_switch);

/// "4x4x2" -> {4, 4, 2}: torus dimensions as `smd-fabric torus --dims` takes them. Every size is a
/// decimal number 1..4096 and sizes are separated by single 'x' (or 'X'); 1 to 3 of them.
/// Errors: kInvalidInput naming the 1-based character position, e.g. for "4x": "--dims '4x': expected a
/// size after 'x' at character 3".
Result<std::vector<unsigned>> parse_torus_dims(std::string_view text);

/// Random connected switch graph: `switches` switches "sw-<i>" each with `degree` inter-switch ports
/// (some may stay empty) plus `hosts_per_switch` hosts. A random spanning tree guarantees connectivity,
/// then random extra cables (no self links; parallel cables allowed only when no other pair is free).
/// Deterministic for a given seed (std::mt19937_64). Needs degree >= 2 when switches > 2.
Result<Topology> make_random(unsigned switches, unsigned degree, unsigned hosts_per_switch, std::uint64_t seed);

/// Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008): `groups` groups of `routers_per_group` (a) switches,
/// full mesh inside a group; each switch has `hosts_per_router` (p) hosts and `global_links_per_router`
/// (h) cables to other groups. Switch "sw-g<g>-r<r>" (group-major order); hosts numbered switch by
/// switch. Switch ports: hosts 1..p, then local ports p+1..p+a-1 (router r reaches router q on local
/// index q < r ? q : q-1), then global ports p+a..p+a+h-1.
/// Global cabling, the canonical "consecutive" arrangement: group i's global port k (0..a*h-1) is
/// router k / h, link k % h. With G = groups, round = k / (G-1) and offset o = k % (G-1), port k goes to
/// group (i + o + 1) mod G, global port round*(G-1) + (G-2-o) there (the same rule read from that end
/// names port k of group i again). A port whose peer index is not below a*h stays empty. Round 0
/// (k < G-1) joins every pair of groups once; further full rounds add parallel cables. G = a*h+1 uses
/// every port once (the balanced dragonfly). Limits: groups 1..a*h+1 (more cannot join every pair),
/// routers >= 1, h >= 1 when groups > 1, p + a - 1 + h <= 254 and >= 1.
struct DragonflySpec {
  unsigned groups = 9;
  unsigned routers_per_group = 4;
  unsigned hosts_per_router = 2;
  unsigned global_links_per_router = 2;
};
Result<Topology> make_dragonfly(const DragonflySpec& spec);

/// Rail-optimized AI cluster (NVIDIA DGX SuperPOD style): `sus` scalable units of `hosts_per_su` hosts, each
/// host with `rails` one-port HCAs; HCA i of every host of a unit is cabled to that unit's leaf for rail i.
/// Without cores every leaf is cabled to every spine (`links_per_pair` cables each): one 2-level Clos whose
/// leaf tier is split by rail. With `cores` > 0 the spines form rail planes (spines / rails of them per
/// rail, the leaves of rail i cabled only to plane i) and every spine has one cable to every core: rails
/// meet only at the core. Names: HCA "host-<h> mlx5_<i>" (h global, host-major: what a real HCA reports
/// as NodeDescription, "<hostname> mlx5_<i>", so one rule finds the hosts of generated and real fabrics:
/// routing/roce/rail_layout.h), leaf "leaf-su<s>-r<i>", spine "spine-<j>" (planes: "spine-r<i>-<j>"),
/// core "core-<c>". Leaf ports: hosts 1..hosts_per_su, then spine j link l at hosts_per_su + j*links + l + 1.
/// Spine ports: leaf (s, i) link l at (s*rails + i)*links + l + 1 (planes: s*links + l + 1, then core c
/// at sus*links + c + 1). Core ports: spine (i, j) at i*(spines/rails) + j + 1.
/// Errors: a zero size, cores with spines not a multiple of rails, a switch above 254 ports.
struct RailSpec {
  unsigned sus = 2;
  unsigned hosts_per_su = 4;
  unsigned rails = 4;  ///< HCAs per host = leaves per scalable unit
  unsigned spines = 4;
  unsigned links_per_pair = 1;  ///< cables between a leaf and each of its spines
  unsigned cores = 0;           ///< 0: no core tier
};
Result<Topology> make_rail_optimized(const RailSpec& spec);

/// One switch "sw-0" with `hosts` hosts on ports 1..hosts.
Result<Topology> make_single_switch(unsigned hosts);

/// Two switches "sw-0", "sw-1" joined by `links` parallel cables (ports 1..links on both), each with
/// `hosts_per_switch` hosts on ports links+1.. . Hosts 0..H-1 on sw-0, H..2H-1 on sw-1.
Result<Topology> make_two_switch(unsigned links, unsigned hosts_per_switch);

}  // namespace smd
