#include "routing/roce/rail_collectives.h"

#include <string>
#include <utility>
#include <vector>

namespace smd::roce {

Result<Collective> make_rail_collective(const CollectiveSpec& spec, const RailLayout& layout,
                                        std::span<const std::uint32_t> hosts) {
  const std::string name = collective_name(spec);
  const std::size_t h = hosts.size();
  const std::size_t rails = layout.rails;
  const std::size_t n = h * rails;
  if (h < 2) {
    return make_error(ErrorCode::kInvalidInput, name + ": needs at least 2 hosts on a multi-HCA fabric, got " +
                                                    std::to_string(h) + " (one host's ranks talk over NVLink only)");
  }
  Collective out{name, n, bus_factor(spec, n), {}};
  CollectiveSpec per_host = spec;
  if (spec.kind == CollectiveKind::kMoeAllToAll) {
    if (spec.group <= rails && rails % spec.group == 0) return out;  // every expert group inside one host
    if (spec.group % rails != 0) {
      return make_error(ErrorCode::kInvalidInput,
                        name + ": an expert group of " + std::to_string(spec.group) + " ranks on hosts of " +
                            std::to_string(rails) + " HCAs is neither whole hosts (a multiple of " +
                            std::to_string(rails) + ") nor inside one host (a divisor of it)");
    }
    per_host.group = static_cast<unsigned>(spec.group / rails);
  }
  // The same collective over the hosts on every rail at once: phase k of rail i's collective joins
  // phase k of the others (they have one shape, so the phases line up).
  for (std::size_t i = 0; i < rails; ++i) {
    std::vector<std::uint32_t> rail_ranks;
    rail_ranks.reserve(h);
    for (const std::uint32_t host : hosts) rail_ranks.push_back(layout.endpoint(host, i));
    auto c = make_collective(per_host, rail_ranks);
    if (!c) return c.error();
    if (i == 0) {
      out.phases = std::move(c->phases);
      continue;
    }
    for (std::size_t k = 0; k < out.phases.size(); ++k) {
      auto& flows = out.phases[k].instance.flows;
      const auto& more = c->phases[k].instance.flows;
      flows.insert(flows.end(), more.begin(), more.end());
    }
  }
  // Volumes in the rank-level convention (collectives.h): per-host collectives over h ranks carry shares of
  // S for h ranks; the rings and the tree carry S/R each per rail over n ranks.
  const double r = static_cast<double>(rails);
  const double ranks = static_cast<double>(n);
  for (auto& p : out.phases) {
    switch (spec.kind) {
      case CollectiveKind::kRingAllReduce:
        p.volume = 1.0 / (r * ranks);
        p.repeat = static_cast<std::uint32_t>(2 * (n - 1));
        break;
      case CollectiveKind::kAllGather:
      case CollectiveKind::kReduceScatter:
        p.volume = 1.0 / (r * ranks);
        p.repeat = static_cast<std::uint32_t>(n - 1);
        break;
      case CollectiveKind::kTreeAllReduce: p.volume = 0.5 / r; break;
      case CollectiveKind::kAllToAll:     // 1/h = R/n: the host's R messages of S/n, aggregated by PXN
      case CollectiveKind::kMoeAllToAll:  // 1/(G/R) = R/G likewise
      case CollectiveKind::kPipeline: break;
    }
  }
  return out;
}

}  // namespace smd::roce
