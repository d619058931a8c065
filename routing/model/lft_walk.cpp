#include "routing/model/lft_walk.h"

#include <algorithm>

namespace smd {

SwitchLfts::SwitchLfts(std::span<const Lft* const> lft) : rows_(lft.size()) {
  for (std::size_t s = 0; s < lft.size(); ++s) {
    if (lft[s] != nullptr) rows_[s] = Row{lft[s]->entries().data(), lft[s]->entries().size()};
  }
}

SwitchLfts::SwitchLfts(const SwitchGraph& graph, const RoutingTables& tables) : rows_(graph.num_switches()) {
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    const NodeIndex n = graph.node(s);
    if (n < tables.lft.size()) rows_[s] = Row{tables.lft[n].entries().data(), tables.lft[n].entries().size()};
  }
}

void SwitchLfts::copy_block(std::size_t base, std::size_t width, PortNum* out) const {
  for (std::size_t s = 0; s < rows_.size(); ++s) {
    const Row& row = rows_[s];
    PortNum* dst = out + s * kLftBlockSize;
    if (base + width <= row.size) {
      std::copy_n(row.data + base, width, dst);
    } else {
      for (std::size_t j = 0; j < width; ++j) dst[j] = base + j < row.size ? row.data[base + j] : kNoPort;
    }
  }
}

}  // namespace smd
