#include "routing/model/lid_major_lfts.h"

#include <algorithm>

namespace smd {
namespace {
constexpr std::size_t kTile = 64;
}  // namespace

LidMajorLfts::LidMajorLfts(std::size_t switches, Lid max_lid)
    : switches_(switches),
      entries_((static_cast<std::size_t>(max_lid) + 1) * switches, kNoPort),
      staged_(static_cast<std::size_t>(max_lid) + 1, 0) {}

void LidMajorLfts::store(const SwitchGraph& graph, RoutingTables& tables, unsigned threads) const {
  std::size_t top = 0;  // one past the highest staged LID
  for (std::size_t lid = 0; lid < staged_.size(); ++lid) {
    if (staged_[lid]) top = lid + 1;
  }
  if (top == 0) return;
  const std::size_t tiles = (switches_ + kTile - 1) / kTile;
  parallel_for_chunks(
      tiles, threads,
      [&](std::size_t first, std::size_t last) {
        for (std::size_t tile = first; tile < last; ++tile) {
          const std::size_t s0 = tile * kTile;
          const std::size_t s1 = std::min(switches_, s0 + kTile);
          std::vector<PortNum>* out[kTile] = {};
          for (std::size_t s = s0; s < s1; ++s) {
            out[s - s0] = &tables.lft[graph.node(static_cast<SwitchIndex>(s))].mutable_entries();
            if (out[s - s0]->size() < top) out[s - s0]->resize(top, kNoPort);
          }
          // 64 LIDs x 64 switches at a time: 64 row segments in, 64 table segments out.
          for (std::size_t l0 = 0; l0 < top; l0 += kTile) {
            const std::size_t l1 = std::min(top, l0 + kTile);
            for (std::size_t s = s0; s < s1; ++s) {
              PortNum* dst = out[s - s0]->data();
              const PortNum* src = entries_.data() + s;
              for (std::size_t lid = l0; lid < l1; ++lid) {
                if (staged_[lid]) dst[lid] = src[lid * switches_];
              }
            }
          }
        }
      },
      1);
}

}  // namespace smd
