#include "routing/roce/fib.h"

namespace smd::roce {

EcmpTable EcmpTable::from_groups(std::size_t n, std::vector<std::uint32_t> offset, std::vector<PortNum> ports) {
  EcmpTable t;
  t.n_ = n;
  t.offset_ = std::move(offset);
  t.ports_ = std::move(ports);
  return t;
}

EcmpTable EcmpTable::build(const SwitchGraph& graph, const HopTable& hops, unsigned threads) {
  EcmpTable t;
  t.n_ = graph.num_switches();
  const std::size_t n = t.n_;
  // Pass 1 counts members per (s, d) so that pass 2 can fill disjoint ranges in parallel.
  std::vector<std::uint32_t> count(n * n, 0);
  auto members = [&](SwitchIndex s, SwitchIndex d, auto&& emit) {
    const std::uint8_t h = hops.hops(s, d);
    if (s == d || h == HopTable::kUnreachable) return;
    for (const auto& link : graph.links(s)) {
      if (hops.hops(link.peer, d) + 1 == h) emit(link.port);
    }
  };
  parallel_for_chunks(
      n, threads,
      [&](std::size_t first, std::size_t last) {
        for (std::size_t s = first; s < last; ++s) {
          for (std::size_t d = 0; d < n; ++d) {
            std::uint32_t c = 0;
            members(static_cast<SwitchIndex>(s), static_cast<SwitchIndex>(d), [&](PortNum) { ++c; });
            count[s * n + d] = c;
          }
        }
      },
      8);
  t.offset_.assign(n * n + 1, 0);
  for (std::size_t i = 0; i < n * n; ++i) t.offset_[i + 1] = t.offset_[i] + count[i];
  t.ports_.resize(t.offset_.back());
  parallel_for_chunks(
      n, threads,
      [&](std::size_t first, std::size_t last) {
        for (std::size_t s = first; s < last; ++s) {
          for (std::size_t d = 0; d < n; ++d) {
            std::uint32_t at = t.offset_[s * n + d];
            // links() is in port order, so every group comes out ascending.
            members(static_cast<SwitchIndex>(s), static_cast<SwitchIndex>(d), [&](PortNum p) { t.ports_[at++] = p; });
          }
        }
      },
      8);
  return t;
}

}  // namespace smd::roce
