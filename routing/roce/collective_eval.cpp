#include "routing/roce/collective_eval.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace smd::roce {

double ideal_phase_time(const CollectivePhase& phase) {
  // Endpoint ids are dense (0..n-1): count in arrays, an all-to-all phase is millions of flows.
  std::uint32_t top = 0;
  for (const auto& f : phase.instance.flows) top = std::max({top, f.src, f.dst});
  std::vector<std::uint32_t> sends(top + std::size_t{1}, 0), receives(top + std::size_t{1}, 0);
  std::uint32_t most = 0;
  for (const auto& f : phase.instance.flows) {
    most = std::max({most, ++sends[f.src], ++receives[f.dst]});
  }
  return phase.repeat * phase.volume * most;
}

double ideal_time(const Collective& collective) {
  double t = 0;
  for (const auto& p : collective.phases) t += ideal_phase_time(p);
  return t;
}

CollectiveFigures collective_figures(const Collective& collective, std::span<const InstanceFigures> figures,
                                     const std::string& scheme_name) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  CollectiveFigures out;
  out.name = scheme_name;
  if (figures.size() != collective.phases.size()) {
    for (const auto& p : collective.phases) out.unrouted += p.instance.flows.size();
    out.time = out.relative_time = kInf;
    return out;
  }
  for (std::size_t i = 0; i < figures.size(); ++i) {
    const CollectivePhase& phase = collective.phases[i];
    out.unrouted += figures[i].unrouted;
    if (phase.instance.flows.empty()) continue;
    const double rate = figures[i].unrouted ? 0.0 : figures[i].min_flow_rate;
    const double t = rate > 0 ? phase.repeat * phase.volume / rate : kInf;
    out.time += t;
    const double ratio = t / ideal_phase_time(phase);
    if (ratio > out.slowest_phase_ratio) {
      out.slowest_phase_ratio = ratio;
      out.slowest_phase = i;
    }
  }
  const double ideal = ideal_time(collective);
  out.relative_time = ideal > 0 ? out.time / ideal : kInf;
  out.bus_bandwidth = out.time > 0 ? collective.bus_factor / out.time : 0.0;
  return out;
}

CollectiveResult collective_result(const Collective& collective) {
  CollectiveResult r;
  r.name = collective.name;
  r.ranks = collective.ranks;
  r.phases = phase_count(collective);
  r.distinct_phases = collective.phases.size();
  for (const auto& p : collective.phases) r.flows += p.instance.flows.size();
  r.ideal_time = ideal_time(collective);
  r.bus_factor = collective.bus_factor;
  r.ideal_bus_bandwidth = r.ideal_time > 0 ? r.bus_factor / r.ideal_time : 0.0;
  return r;
}

}  // namespace smd::roce
