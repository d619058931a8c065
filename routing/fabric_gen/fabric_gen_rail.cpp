// Rail-optimized multi-HCA fabrics (make_rail_optimized): hosts with one HCA per rail, a leaf per rail in
// every scalable unit, a spine tier and an optional core.
#include <string>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/fabric_gen/fabric_gen_builder.h"

namespace smd {
namespace {

using fabric_gen::bad_shape;
using fabric_gen::Builder;

/// The shape's port counts, or why it cannot be built.
struct RailPorts {
  unsigned long leaf = 0, spine = 0, core = 0;
};

Result<RailPorts> rail_ports(const RailSpec& s) {
  if (s.sus < 1 || s.hosts_per_su < 1 || s.rails < 1 || s.spines < 1 || s.links_per_pair < 1) {
    return bad_shape("rail", "scalable units, hosts per unit, rails, spines and links per pair must be >= 1");
  }
  // No switch has more than 254 ports, so no count may exceed it; bounding each first keeps the products below
  // from wrapping.
  for (unsigned v : {s.sus, s.hosts_per_su, s.rails, s.spines, s.links_per_pair, s.cores}) {
    if (v > 254)
      return bad_shape("rail", "every count must be <= 254 (a switch has at most 254 ports), got " + std::to_string(v));
  }
  if (s.cores > 0 && s.spines % s.rails != 0) {
    return bad_shape("rail", "with a core tier the spines form one plane per rail: spines (" +
                                 std::to_string(s.spines) + ") must be a multiple of rails (" +
                                 std::to_string(s.rails) + ")");
  }
  const unsigned spines_per_leaf = s.cores > 0 ? s.spines / s.rails : s.spines;
  RailPorts p;
  p.leaf = s.hosts_per_su + static_cast<unsigned long>(spines_per_leaf) * s.links_per_pair;
  p.spine = s.cores > 0 ? static_cast<unsigned long>(s.sus) * s.links_per_pair + s.cores
                        : static_cast<unsigned long>(s.sus) * s.rails * s.links_per_pair;
  p.core = s.spines;
  for (auto [what, n] : {std::pair{"leaf", p.leaf}, std::pair{"spine", p.spine}}) {
    if (n > 254)
      return bad_shape("rail", std::string("a ") + what + " would need " + std::to_string(n) + " > 254 ports");
  }
  if (s.cores > 0 && p.core > 254) {
    return bad_shape("rail", "a core would need " + std::to_string(p.core) + " > 254 ports");
  }
  // Every HCA and switch takes a unicast LID (IBA 4.1.3: 0x0001-0xBFFF).
  const unsigned long lids = static_cast<unsigned long>(s.sus) * s.hosts_per_su * s.rails +
                             static_cast<unsigned long>(s.sus) * s.rails + s.spines + s.cores;
  if (lids > 49151) {
    return bad_shape("rail", "the fabric would need " + std::to_string(lids) +
                                 " LIDs (HCAs and switches); a subnet has 49151 unicast LIDs");
  }
  return p;
}

}  // namespace

Result<Topology> make_rail_optimized(const RailSpec& s) {
  auto ports = rail_ports(s);
  if (!ports) return ports.error();
  Builder b;
  // Hosts first (the netfile's order), host-major: host-0's HCAs are CAs 0..rails-1.
  const std::size_t hosts = static_cast<std::size_t>(s.sus) * s.hosts_per_su;
  std::vector<NodeIndex> hca(hosts * s.rails);
  for (std::size_t h = 0; h < hosts; ++h) {
    for (unsigned i = 0; i < s.rails; ++i) {
      hca[h * s.rails + i] = b.add_host("host-" + std::to_string(h) + " mlx5_" + std::to_string(i));
    }
  }
  // leaf[su * rails + rail]
  std::vector<NodeIndex> leaf(static_cast<std::size_t>(s.sus) * s.rails);
  for (unsigned su = 0; su < s.sus; ++su) {
    for (unsigned i = 0; i < s.rails; ++i) {
      leaf[su * s.rails + i] =
          b.add_switch("leaf-su" + std::to_string(su) + "-r" + std::to_string(i), static_cast<unsigned>(ports->leaf));
    }
  }
  const bool planes = s.cores > 0;
  const unsigned per_plane = planes ? s.spines / s.rails : s.spines;
  // spine[plane * per_plane + j]; without cores a single plane holds every spine.
  std::vector<NodeIndex> spine(s.spines);
  for (unsigned j = 0; j < s.spines; ++j) {
    const std::string name = planes ? "spine-r" + std::to_string(j / per_plane) + "-" + std::to_string(j % per_plane)
                                    : "spine-" + std::to_string(j);
    spine[j] = b.add_switch(name, static_cast<unsigned>(ports->spine));
  }
  std::vector<NodeIndex> core(s.cores);
  for (unsigned c = 0; c < s.cores; ++c) {
    core[c] = b.add_switch("core-" + std::to_string(c), static_cast<unsigned>(ports->core));
  }

  const unsigned links = s.links_per_pair;
  for (unsigned su = 0; su < s.sus; ++su) {
    for (unsigned i = 0; i < s.rails; ++i) {
      const NodeIndex lf = leaf[su * s.rails + i];
      for (unsigned h = 0; h < s.hosts_per_su; ++h) {
        SMD_GEN_TRY(b.link(hca[(static_cast<std::size_t>(su) * s.hosts_per_su + h) * s.rails + i], 1, lf, h + 1));
      }
      for (unsigned j = 0; j < per_plane; ++j) {
        const unsigned sp = planes ? i * per_plane + j : j;
        // The leaf's index among the spine's leaves: all leaves, or this rail's one per unit.
        const unsigned at_spine = planes ? su : su * s.rails + i;
        for (unsigned l = 0; l < links; ++l) {
          SMD_GEN_TRY(b.link(lf, s.hosts_per_su + j * links + l + 1, spine[sp], at_spine * links + l + 1));
        }
      }
    }
  }
  for (unsigned sp = 0; sp < s.spines && planes; ++sp) {
    for (unsigned c = 0; c < s.cores; ++c) SMD_GEN_TRY(b.link(spine[sp], s.sus * links + c + 1, core[c], sp + 1));
  }
  return std::move(b).finish();
}

}  // namespace smd
