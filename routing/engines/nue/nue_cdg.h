// The channel dependency graph of one Nue layer, kept acyclic as dependencies come and go (Domke, Hoefler,
// Matsuoka, HPDC 2016: Nue routes inside the complete CDG and accepts a dependency only when it closes no
// cycle). A dependency a -> b means some route takes channel b right after channel a (channels.h).
//
// How a new dependency is checked: the graph keeps a topological order of its channels (Pearce & Kelly,
// "A Dynamic Topological Sort Algorithm for Directed Acyclic Graphs", JEA 2006). a -> b with a before b in
// that order cannot close a cycle and costs O(1); otherwise only the channels ordered between b and a are
// searched (forward from b: reaching a means a cycle), and on success those channels are reordered so that
// the order stays topological. Removing a dependency never breaks the order.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "routing/engines/common/channels.h"

namespace smd {

/// Counted dependencies between `channels` channels: several routes may induce the same one, and it stays
/// until the last of them is removed. Memory O(C + E).
class NueCdg {
 public:
  explicit NueCdg(std::size_t channels);

  /// Add one use of a -> b. false (and nothing changed) when a == b or the dependency would close a cycle;
  /// true when it was already there or was added acyclic. Cost O(1) when the order already agrees,
  /// else O(the channels and dependencies ordered between b and a).
  bool add(ChannelId a, ChannelId b);
  /// Drop one use of a -> b (which must have been added); the dependency goes with its last use. O(degree).
  void remove(ChannelId a, ChannelId b);
  /// Distinct dependencies present.
  std::size_t edges() const { return edges_; }

 private:
  struct Arc {
    ChannelId to;
    std::uint32_t uses;
  };
  bool search_forward(ChannelId from, std::uint32_t upper, ChannelId target);
  void search_backward(ChannelId from, std::uint32_t lower);
  void reorder();

  std::vector<std::vector<Arc>> out_;
  std::vector<std::vector<ChannelId>> in_;
  std::vector<std::uint32_t> ord_;   ///< topological position of each channel
  std::vector<std::uint32_t> seen_;  ///< search stamp per channel
  std::uint32_t stamp_ = 0;
  std::size_t edges_ = 0;
  std::vector<ChannelId> forward_, backward_, stack_;  ///< scratch of one add()
};

}  // namespace smd
