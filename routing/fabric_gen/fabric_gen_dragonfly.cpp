// make_dragonfly (fabric_gen.h): groups, their local full mesh and the consecutive global cabling.
#include <cstdint>
#include <string>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/fabric_gen/fabric_gen_builder.h"

namespace smd {

using fabric_gen::bad_shape;
using fabric_gen::Builder;

Result<Topology> make_dragonfly(const DragonflySpec& spec) {
  const std::uint64_t a = spec.routers_per_group;
  const std::uint64_t h = spec.global_links_per_router;
  const std::uint64_t p = spec.hosts_per_router;
  const std::uint64_t g = spec.groups;
  if (g == 0) return bad_shape("dragonfly", "--groups must be at least 1");
  if (a == 0) return bad_shape("dragonfly", "--routers must be at least 1");
  if (g > 1 && h == 0) return bad_shape("dragonfly", "--global-links must be at least 1 with more than one group");
  if (g > a * h + 1) {
    return bad_shape("dragonfly", "--groups " + std::to_string(g) + " exceeds routers * global links + 1 = " +
                                      std::to_string(a * h + 1) + ": some pair of groups could not be joined");
  }
  const std::uint64_t ports = p + (a - 1) + h;
  if (ports > 254) return bad_shape("dragonfly", "hosts + routers - 1 + global links exceeds 254 ports");
  if (ports == 0) return bad_shape("dragonfly", "a single router with no hosts has no ports");
  if (g * a > 65536) return bad_shape("dragonfly", "more than 65536 switches");

  Builder b;
  const std::uint64_t switches = g * a;
  NodeIndex first_host = 0;
  for (std::uint64_t i = 0; i < switches * p; ++i) {
    const NodeIndex n = b.add_host("host-" + std::to_string(i));
    if (i == 0) first_host = n;
  }
  std::vector<NodeIndex> sw(switches);
  for (std::uint64_t gi = 0; gi < g; ++gi) {
    for (std::uint64_t r = 0; r < a; ++r) {
      sw[gi * a + r] =
          b.add_switch("sw-g" + std::to_string(gi) + "-r" + std::to_string(r), static_cast<unsigned>(ports));
    }
  }
  for (std::uint64_t s = 0; s < switches; ++s) {
    for (std::uint64_t i = 0; i < p; ++i) {
      SMD_GEN_TRY(b.link(first_host + static_cast<NodeIndex>(s * p + i), 1, sw[s], static_cast<unsigned>(i + 1)));
    }
  }
  // Local full mesh: router r's local index for router q skips r itself.
  auto local_port = [&](std::uint64_t r, std::uint64_t q) {
    return static_cast<unsigned>(p + 1 + (q < r ? q : q - 1));
  };
  for (std::uint64_t gi = 0; gi < g; ++gi) {
    for (std::uint64_t r = 0; r < a; ++r) {
      for (std::uint64_t q = r + 1; q < a; ++q) {
        SMD_GEN_TRY(b.link(sw[gi * a + r], local_port(r, q), sw[gi * a + q], local_port(q, r)));
      }
    }
  }
  if (g < 2) return std::move(b).finish();
  // Global port k of a group -> (switch, port number).
  auto global_end = [&](std::uint64_t gi, std::uint64_t k) {
    return std::pair<NodeIndex, unsigned>{sw[gi * a + k / h], static_cast<unsigned>(p + a + k % h)};
  };
  const std::uint64_t per_group = a * h;
  for (std::uint64_t gi = 0; gi < g; ++gi) {
    for (std::uint64_t k = 0; k < per_group; ++k) {
      const std::uint64_t round = k / (g - 1);
      const std::uint64_t o = k % (g - 1);
      const std::uint64_t gj = (gi + o + 1) % g;
      const std::uint64_t kj = round * (g - 1) + (g - 2 - o);
      if (kj >= per_group) continue;
      // Each cable is met from both ends: lay it from the lower (group, port) one.
      if (gj < gi || (gj == gi && kj < k)) continue;
      const auto [na, pa] = global_end(gi, k);
      const auto [nb, pb] = global_end(gj, kj);
      SMD_GEN_TRY(b.link(na, pa, nb, pb));
    }
  }
  return std::move(b).finish();
}

}  // namespace smd
