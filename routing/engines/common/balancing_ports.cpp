#include "routing/engines/common/balancing_ports.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace smd {
namespace {

/// Collects the lines of one file that this fabric cannot apply, for one note.
class Skipped {
 public:
  explicit Skipped(std::string key) : key_(std::move(key)) {}
  void add(const std::string& what) {
    if (++count_ <= 8) list_ += " " + what;
  }
  void flush(std::vector<std::string>& notes) const {
    if (count_ == 0) return;
    notes.push_back(key_ + ": " + std::to_string(count_) + (count_ == 1 ? " line names" : " lines name") +
                    " no switch port of the fabric, skipped:" + list_ + (count_ > 8 ? " ..." : ""));
  }

 private:
  std::string key_;
  std::string list_;
  std::size_t count_ = 0;
};

/// The switch index of `guid`, kNoSwitch when it names no switch.
SwitchIndex switch_of(const Topology& topo, const SwitchGraph& graph, Guid guid) {
  const auto node = topo.find(guid);
  return node ? graph.index_of(*node) : kNoSwitch;
}

std::string place(Guid sw, PortNum port) { return format_guid(sw) + "/" + std::to_string(port); }

}  // namespace

BalancingPorts resolve_balancing_ports(const Topology& topo, const SwitchGraph& graph, std::string_view engine,
                                       std::span<const HopWeight> weights, std::span<const PortSearchOrder> orders,
                                       std::span<const SwitchPort> ignored) {
  BalancingPorts out;
  const std::string section = "routing." + std::string(engine) + ".";
  // A value per listed (switch, port) slot; a line naming no switch port of this fabric is skipped.
  auto per_slot = [&](const auto& lines, std::vector<std::uint8_t>& values, std::uint8_t unlisted, const char* key,
                      auto value_of) {
    if (lines.empty()) return;
    values.assign(graph.num_slots(), unlisted);
    Skipped skipped(section + key);
    for (const auto& line : lines) {
      const SwitchIndex s = switch_of(topo, graph, line.sw);
      if (s == kNoSwitch || line.port > graph.num_ports(s)) {
        skipped.add(place(line.sw, line.port));
      } else {
        values[graph.slot(s, line.port)] = value_of(line);
      }
    }
    skipped.flush(out.notes);
  };
  per_slot(weights, out.weight, 1, "hop_weights_file", [](const HopWeight& w) { return w.weight; });
  per_slot(ignored, out.prof_ignored, 0, "port_prof_ignore_file", [](const SwitchPort&) { return std::uint8_t{1}; });
  if (!orders.empty()) {
    // Port order for every switch; a listed switch's ports move to the front in the line's order.
    out.search_rank.resize(graph.num_slots());
    for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
      for (PortNum p = 0; p <= graph.num_ports(s); ++p) out.search_rank[graph.slot(s, p)] = p;
    }
    Skipped skipped(section + "port_search_ordering_file");
    for (const PortSearchOrder& line : orders) {
      const SwitchIndex s = switch_of(topo, graph, line.sw);
      if (s == kNoSwitch) {
        skipped.add(format_guid(line.sw));
        continue;
      }
      const PortNum n = graph.num_ports(s);
      std::vector<std::uint8_t> listed(static_cast<std::size_t>(n) + 1, 0);
      std::uint8_t rank = 1;  // port 0 (the switch itself) stays first: it is never a choice
      for (PortNum p : line.ports) {
        if (p > n) {
          skipped.add(place(line.sw, p));
          continue;
        }
        listed[p] = 1;
        out.search_rank[graph.slot(s, p)] = rank++;
      }
      for (PortNum p = 1; p <= n; ++p) {
        if (!listed[p]) out.search_rank[graph.slot(s, p)] = rank++;
      }
    }
    skipped.flush(out.notes);
  }
  return out;
}

WeightedHopTable WeightedHopTable::build(const SwitchGraph& graph, std::span<const std::uint8_t> weight) {
  WeightedHopTable t;
  t.n_ = graph.num_switches();
  t.dist_.assign(t.n_ * t.n_, kUnreachable);
  using Item = std::pair<std::uint32_t, SwitchIndex>;  // (distance to the destination, switch)
  parallel_for_chunks(
      t.n_, 0,
      [&](std::size_t first, std::size_t last) {
        std::vector<std::uint32_t> d(t.n_);
        std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
        for (std::size_t di = first; di < last; ++di) {
          const auto dst = static_cast<SwitchIndex>(di);
          std::fill(d.begin(), d.end(), kUnreachable);
          d[dst] = 0;
          heap.push({0, dst});
          while (!heap.empty()) {
            const auto [du, u] = heap.top();
            heap.pop();
            if (du != d[u]) continue;
            // Every cable into u, seen from u: the neighbour v leaves by its port facing u.
            for (const SwitchGraph::Link& link : graph.links(u)) {
              const SwitchIndex v = link.peer;
              const std::uint32_t w = weight.empty() ? 1u : weight[graph.slot(v, graph.peer_port(u, link.port))];
              if (du + w < d[v]) {
                d[v] = du + w;
                heap.push({d[v], v});
              }
            }
          }
          for (std::size_t v = 0; v < t.n_; ++v) t.dist_[v * t.n_ + dst] = d[v];
        }
      },
      16);
  return t;
}

}  // namespace smd
