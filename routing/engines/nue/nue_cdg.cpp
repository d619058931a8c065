#include "routing/engines/nue/nue_cdg.h"

#include <algorithm>
#include <numeric>

namespace smd {

NueCdg::NueCdg(std::size_t channels) : out_(channels), in_(channels), ord_(channels), seen_(channels, 0) {
  std::iota(ord_.begin(), ord_.end(), std::uint32_t{0});
}

bool NueCdg::add(ChannelId a, ChannelId b) {
  if (a == b) return false;
  for (Arc& arc : out_[a]) {
    if (arc.to == b) {
      ++arc.uses;
      return true;
    }
  }
  if (ord_[a] > ord_[b]) {
    // b is ordered first: a cycle exists iff a is reachable from b; only channels up to a's position can be
    // on such a path.
    ++stamp_;
    if (search_forward(b, ord_[a], a)) return false;
    search_backward(a, ord_[b]);
    reorder();
  }
  out_[a].push_back({b, 1});
  in_[b].push_back(a);
  ++edges_;
  return true;
}

void NueCdg::remove(ChannelId a, ChannelId b) {
  std::vector<Arc>& arcs = out_[a];
  const auto it = std::find_if(arcs.begin(), arcs.end(), [b](const Arc& arc) { return arc.to == b; });
  if (it == arcs.end()) return;
  if (--it->uses > 0) return;
  arcs.erase(it);
  std::vector<ChannelId>& into = in_[b];
  into.erase(std::find(into.begin(), into.end(), a));
  --edges_;
}

bool NueCdg::search_forward(ChannelId from, std::uint32_t upper, ChannelId target) {
  forward_.clear();
  stack_.assign(1, from);
  seen_[from] = stamp_;
  while (!stack_.empty()) {
    const ChannelId c = stack_.back();
    stack_.pop_back();
    forward_.push_back(c);
    for (const Arc& arc : out_[c]) {
      if (arc.to == target) return true;
      if (seen_[arc.to] != stamp_ && ord_[arc.to] < upper) {
        seen_[arc.to] = stamp_;
        stack_.push_back(arc.to);
      }
    }
  }
  return false;
}

void NueCdg::search_backward(ChannelId from, std::uint32_t lower) {
  backward_.clear();
  stack_.assign(1, from);
  seen_[from] = stamp_;
  while (!stack_.empty()) {
    const ChannelId c = stack_.back();
    stack_.pop_back();
    backward_.push_back(c);
    for (const ChannelId p : in_[c]) {
      if (seen_[p] != stamp_ && ord_[p] > lower) {
        seen_[p] = stamp_;
        stack_.push_back(p);
      }
    }
  }
}

void NueCdg::reorder() {
  // The channels that reach a (backward_) must all come before those b reaches (forward_); the two sets are
  // disjoint (no cycle) and together keep the positions they held, each set in its old relative order.
  const auto by_ord = [this](ChannelId x, ChannelId y) { return ord_[x] < ord_[y]; };
  std::sort(backward_.begin(), backward_.end(), by_ord);
  std::sort(forward_.begin(), forward_.end(), by_ord);
  std::vector<std::uint32_t> slots;
  slots.reserve(backward_.size() + forward_.size());
  for (const ChannelId c : backward_) slots.push_back(ord_[c]);
  for (const ChannelId c : forward_) slots.push_back(ord_[c]);
  std::sort(slots.begin(), slots.end());
  std::size_t i = 0;
  for (const ChannelId c : backward_) ord_[c] = slots[i++];
  for (const ChannelId c : forward_) ord_[c] = slots[i++];
}

}  // namespace smd
