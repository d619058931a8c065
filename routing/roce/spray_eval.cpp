#include "routing/roce/spray_eval.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <queue>
#include <utility>

#include "routing/roce/scheme_eval.h"

namespace smd::roce {
namespace {

constexpr std::uint32_t kNoClass = 0xFFFFFFFFu;

/// Ids of SprayEvaluators, 1 up: a workspace remembers the evaluator that filled its class table.
std::atomic<std::uint64_t> next_evaluator_id{1};

}  // namespace

SprayEvaluator::SprayEvaluator(const FlowTracer& tracer, const HopGroups& groups)
    : tracer_(tracer), groups_(groups), num_channels_(tracer.num_channels()), id_(next_evaluator_id++) {
  leaf_index_.assign(tracer.graph().num_switches(), kNoClass);
  for (const auto& e : tracer.endpoints()) {
    if (leaf_index_[e.sw] == kNoClass) leaf_index_[e.sw] = static_cast<std::uint32_t>(leaves_++);
  }
}

// The fluid walk of one class: the fractions of the flow present at each switch, hop by hop; a fraction
// that reaches `dst` stops, the rest splits equally over its group. Groups that are not shortest paths
// (BGP's own-AS rule off a Clos) may bring fractions to one switch at different hops and onto one channel
// twice: fractions are added up per switch for each hop, and per channel over the walk, in the
// workspace's dense accumulators (zero again when the walk ends).
bool SprayEvaluator::split(SwitchIndex src, SwitchIndex dst, SprayWorkspace& ws) const {
  const auto& g = tracer_.graph();
  auto& at_switch = ws.at_switch;
  auto& on_channel = ws.on_channel;
  at_switch.resize(g.num_switches(), 0.0);
  on_channel.resize(num_channels_, 0.0);
  std::vector<std::pair<SwitchIndex, double>> here{{src, 1.0}};
  std::vector<SwitchIndex> reached;
  std::vector<std::uint32_t> crossed;
  const std::uint16_t* row = groups_.row(dst);
  bool ok = true;
  for (std::size_t hop = 0; ok && !here.empty(); ++hop) {
    if (hop > g.num_switches()) {
      ok = false;
      break;
    }
    reached.clear();
    for (const auto& [s, x] : here) {
      if (s == dst) continue;
      const auto group = groups_.local(s, row[s]);
      if (group.empty()) {
        ok = false;
        break;
      }
      const double share = x / static_cast<double>(group.size());
      for (PortNum p : group) {
        const SwitchIndex t = g.peer_switch(s, p);
        if (t == kNoSwitch) {
          ok = false;
          break;
        }
        const std::uint32_t c = g.slot(s, p);
        if (on_channel[c] == 0) crossed.push_back(c);  // shares are > 0: 0 means not crossed yet
        on_channel[c] += share;
        if (at_switch[t] == 0) reached.push_back(t);
        at_switch[t] += share;
      }
    }
    here.clear();
    for (const SwitchIndex t : reached) {
      here.emplace_back(t, at_switch[t]);
      at_switch[t] = 0;
    }
  }
  for (const std::uint32_t c : crossed) {
    ws.entry_channel.push_back(c);
    ws.entry_share.push_back(on_channel[c]);
    on_channel[c] = 0;
  }
  return ok;
}

std::uint32_t SprayEvaluator::class_of(SwitchIndex src, SwitchIndex dst, SprayWorkspace& ws) const {
  auto& slot = ws.class_of_pair[static_cast<std::size_t>(leaf_index_[src]) * leaves_ + leaf_index_[dst]];
  if (slot) return slot - 1;
  const auto k = static_cast<std::uint32_t>(ws.class_src.size());
  ws.class_src.push_back(src);
  ws.class_dst.push_back(dst);
  ws.class_routed.push_back(split(src, dst, ws));
  ws.class_start.push_back(static_cast<std::uint32_t>(ws.entry_channel.size()));
  slot = k + 1;
  return k;
}

// The class of every flow, and the flows of every class (class -> flows, compressed).
void SprayEvaluator::classify(const PatternInstance& inst, SprayWorkspace& ws, InstanceFigures& r) const {
  const auto& eps = tracer_.endpoints();
  const auto& flows = inst.flows;
  // Empty the classes of the last instance: only the table slots they used when this evaluator filled
  // the table, the whole table when another one did (the fabric before a loss: other leaves, another
  // layout).
  if (ws.evaluator != id_) {
    ws.class_of_pair.assign(leaves_ * leaves_, 0);
    ws.evaluator = id_;
  } else {
    for (std::size_t k = 0; k < ws.class_src.size(); ++k) {
      ws.class_of_pair[static_cast<std::size_t>(leaf_index_[ws.class_src[k]]) * leaves_ +
                       leaf_index_[ws.class_dst[k]]] = 0;
    }
  }
  ws.class_src.clear();
  ws.class_dst.clear();
  ws.class_routed.clear();
  ws.entry_channel.clear();
  ws.entry_share.clear();
  ws.class_start.assign(1, 0);
  ws.flow_class.resize(flows.size());
  for (std::size_t f = 0; f < flows.size(); ++f) {
    // An endpoint this fabric lacks (cut off by a loss, kNoEndpoint): unrouted, in no class.
    if (flows[f].src >= eps.size() || flows[f].dst >= eps.size()) {
      ws.flow_class[f] = kNoClass;
      ++r.unrouted;
      continue;
    }
    const std::uint32_t k = class_of(eps[flows[f].src].sw, eps[flows[f].dst].sw, ws);
    ws.flow_class[f] = ws.class_routed[k] ? k : kNoClass;
    r.unrouted += !ws.class_routed[k];
  }
  const std::size_t classes = ws.class_src.size();
  ws.class_flows.assign(classes + 1, 0);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    if (ws.flow_class[f] != kNoClass) ++ws.class_flows[ws.flow_class[f] + 1];
  }
  for (std::size_t k = 0; k < classes; ++k) ws.class_flows[k + 1] += ws.class_flows[k];
  ws.flows_by_class.resize(ws.class_flows[classes]);
  {
    std::vector<std::uint32_t> fill(ws.class_flows.begin(), ws.class_flows.end() - 1);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (ws.flow_class[f] != kNoClass) ws.flows_by_class[fill[ws.flow_class[f]]++] = static_cast<std::uint32_t>(f);
    }
  }
  ws.class_unfrozen.resize(classes);
  for (std::size_t k = 0; k < classes; ++k) ws.class_unfrozen[k] = ws.class_flows[k + 1] - ws.class_flows[k];
}

// Loads: every flow's host cables count 1, its class's switch cables the class's shares; then the
// transposes the filling walks (host channel -> flows, switch channel -> class entries) and every
// channel's unfrozen flows and weight.
void SprayEvaluator::place(const PatternInstance& inst, SprayWorkspace& ws) const {
  const auto& g = tracer_.graph();
  const auto& eps = tracer_.endpoints();
  const auto& flows = inst.flows;
  const std::size_t classes = ws.class_src.size();
  ws.load.assign(num_channels_, 0.0);
  ws.weight.assign(num_channels_, 0.0);
  ws.unfrozen.assign(num_channels_, 0);
  auto inject = [&](std::size_t f) { return static_cast<std::uint32_t>(g.num_slots() + flows[f].src); };
  auto deliver = [&](std::size_t f) {
    const Endpoint& to = eps[flows[f].dst];
    return static_cast<std::uint32_t>(g.slot(to.sw, to.sw_port));
  };
  ws.host_start.assign(num_channels_ + 1, 0);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    if (ws.flow_class[f] == kNoClass) continue;
    for (const std::uint32_t c : {inject(f), deliver(f)}) {
      ++ws.host_start[c + 1];
      ws.load[c] += 1.0;
      ws.weight[c] += 1.0;
      ++ws.unfrozen[c];
    }
  }
  for (std::size_t c = 0; c < num_channels_; ++c) ws.host_start[c + 1] += ws.host_start[c];
  ws.host_members.resize(ws.host_start[num_channels_]);
  {
    std::vector<std::uint32_t> fill(ws.host_start.begin(), ws.host_start.end() - 1);
    for (std::size_t f = 0; f < flows.size(); ++f) {
      if (ws.flow_class[f] == kNoClass) continue;
      for (const std::uint32_t c : {inject(f), deliver(f)}) ws.host_members[fill[c]++] = static_cast<std::uint32_t>(f);
    }
  }
  const std::size_t entries = ws.entry_channel.size();
  ws.entry_class.resize(entries);
  for (std::size_t k = 0; k < classes; ++k) {
    const std::uint32_t n = ws.class_unfrozen[k];
    for (std::uint32_t i = ws.class_start[k]; i < ws.class_start[k + 1]; ++i) {
      ws.entry_class[i] = static_cast<std::uint32_t>(k);
      const std::uint32_t c = ws.entry_channel[i];
      ws.load[c] += n * ws.entry_share[i];
      ws.weight[c] += n * ws.entry_share[i];
      ws.unfrozen[c] += n;
    }
  }
  ws.switch_start.assign(num_channels_ + 1, 0);
  for (std::size_t i = 0; i < entries; ++i) ++ws.switch_start[ws.entry_channel[i] + 1];
  for (std::size_t c = 0; c < num_channels_; ++c) ws.switch_start[c + 1] += ws.switch_start[c];
  ws.switch_members.resize(entries);
  std::vector<std::uint32_t> fill(ws.switch_start.begin(), ws.switch_start.end() - 1);
  for (std::size_t i = 0; i < entries; ++i)
    ws.switch_members[fill[ws.entry_channel[i]]++] = static_cast<std::uint32_t>(i);
  ws.flows_on.assign(ws.unfrozen.begin(), ws.unfrozen.end());  // the filling counts `unfrozen` down
}

// Progressive filling (file comment). All unfrozen flows share the current level, so freezing the flows
// of a saturated channel at its level `current` takes current x share off every channel they touch. A
// class's switch entries are updated once per saturation for all its flows frozen in it.
void SprayEvaluator::fill(const PatternInstance& inst, SprayWorkspace& ws) const {
  const auto& g = tracer_.graph();
  const auto& eps = tracer_.endpoints();
  const std::size_t flows = inst.flows.size();
  ws.frozen.assign(flows, 0);
  ws.rate.assign(flows, 0.0);
  ws.remaining.assign(num_channels_, 1.0);
  ws.class_pending.assign(ws.class_src.size(), 0);
  ws.touched.clear();
  using Entry = std::pair<double, std::uint32_t>;  // (level at which the channel saturates, channel)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t c = 0; c < num_channels_; ++c) {
    if (ws.unfrozen[c]) heap.emplace(1.0 / ws.weight[c], static_cast<std::uint32_t>(c));
  }
  double current = 0;
  auto freeze = [&](std::uint32_t f) {
    if (ws.frozen[f]) return;
    ws.frozen[f] = 1;
    ws.rate[f] = current;
    const Endpoint& to = eps[inst.flows[f].dst];
    for (const std::size_t c : {g.num_slots() + inst.flows[f].src, g.slot(to.sw, to.sw_port)}) {
      ws.remaining[c] -= current;
      ws.weight[c] -= 1.0;
      --ws.unfrozen[c];
    }
    const std::uint32_t k = ws.flow_class[f];
    if (ws.class_pending[k]++ == 0) ws.touched.push_back(k);
  };
  while (!heap.empty()) {
    const auto [level, c] = heap.top();
    heap.pop();
    if (ws.unfrozen[c] == 0) continue;
    current = std::max(0.0, ws.remaining[c]) / std::max(ws.weight[c], std::numeric_limits<double>::min());
    if (current > level * (1 + 1e-12) + 1e-15) {  // stale: the level rose since it was pushed
      heap.emplace(current, c);
      continue;
    }
    for (std::uint32_t i = ws.host_start[c]; i < ws.host_start[c + 1]; ++i) freeze(ws.host_members[i]);
    for (std::uint32_t i = ws.switch_start[c]; i < ws.switch_start[c + 1]; ++i) {
      const std::uint32_t k = ws.entry_class[ws.switch_members[i]];
      if (ws.class_unfrozen[k] == ws.class_pending[k]) continue;  // all its flows frozen already
      for (std::uint32_t j = ws.class_flows[k]; j < ws.class_flows[k + 1]; ++j) freeze(ws.flows_by_class[j]);
    }
    for (const std::uint32_t k : ws.touched) {
      const double m = ws.class_pending[k];
      for (std::uint32_t i = ws.class_start[k]; i < ws.class_start[k + 1]; ++i) {
        const std::uint32_t e = ws.entry_channel[i];
        ws.remaining[e] -= m * current * ws.entry_share[i];
        ws.weight[e] -= m * ws.entry_share[i];
        ws.unfrozen[e] -= ws.class_pending[k];
      }
      ws.class_unfrozen[k] -= ws.class_pending[k];
      ws.class_pending[k] = 0;
    }
    ws.touched.clear();
  }
}

// The figures of scheme_eval.h from the split loads and the filled rates.
void SprayEvaluator::tally(const PatternInstance& inst, SprayWorkspace& ws, InstanceFigures& r) const {
  const auto& g = tracer_.graph();
  const auto& eps = tracer_.endpoints();
  for (std::size_t c = 0; c < num_channels_; ++c) {
    r.max_load = std::max(r.max_load, ws.load[c]);
    if (tracer_.is_switch_link(static_cast<std::uint32_t>(c))) {
      r.max_switch_load = std::max(r.max_switch_load, ws.load[c]);
      r.hottest.add(static_cast<std::uint32_t>(c), ws.load[c]);
    }
  }
  // Per class: the highest load on its switch cables, and whether one carries parts of two flows.
  const std::size_t classes = ws.class_src.size();
  std::vector<double> class_worst(classes, 0.0);
  std::vector<std::uint8_t> class_collides(classes, 0);
  for (std::size_t k = 0; k < classes; ++k) {
    const std::uint32_t own = ws.class_flows[k + 1] - ws.class_flows[k];
    for (std::uint32_t i = ws.class_start[k]; i < ws.class_start[k + 1]; ++i) {
      const std::uint32_t c = ws.entry_channel[i];
      class_worst[k] = std::max(class_worst[k], ws.load[c]);
      class_collides[k] |= ws.flows_on[c] >= 2 && own >= 1;
    }
  }
  double min_rate = std::numeric_limits<double>::infinity();
  bool any = false;
  for (std::size_t f = 0; f < inst.flows.size(); ++f) {
    const std::uint32_t k = ws.flow_class[f];
    if (k == kNoClass) continue;
    any = true;
    const Endpoint& to = eps[inst.flows[f].dst];
    const double worst =
        std::max({class_worst[k], ws.load[g.num_slots() + inst.flows[f].src], ws.load[g.slot(to.sw, to.sw_port)]});
    r.bottleneck_sum += 1.0 / worst;
    r.maxmin_sum += ws.rate[f];
    min_rate = std::min(min_rate, ws.rate[f]);
    r.collisions += class_collides[k];
  }
  r.min_flow_rate = any ? min_rate : 0.0;
}

InstanceFigures SprayEvaluator::evaluate(const PatternInstance& inst, SprayWorkspace& ws) const {
  InstanceFigures r;
  r.flows = inst.flows.size();
  classify(inst, ws, r);
  place(inst, ws);
  fill(inst, ws);
  tally(inst, ws, r);
  return r;
}

}  // namespace smd::roce
