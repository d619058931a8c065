#include "routing/model/lft_walk.h"

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

}  // namespace smd
