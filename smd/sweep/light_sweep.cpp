#include "smd/sweep/light_sweep.h"

#include <cstdio>

#include "mad/codec/switch_info.h"

namespace smd {

LightSweepResult light_sweep(SmpBatch& batch, const Topology& topo, unsigned rounds) {
  LightSweepResult out;
  std::vector<NodeIndex> ask(topo.switches().begin(), topo.switches().end());
  for (unsigned round = 0; round <= rounds && !ask.empty() && !out.change; ++round) {
    std::vector<NodeIndex> silent;
    for (NodeIndex s : ask) {
      const Node& sw = topo.node(s);
      ++(round == 0 ? out.switches_polled : out.asked_again);
      batch.submit(mad::smp_get(mad::DrPath(sw.dr_path), mad::attr::kSwitchInfo), [&out, &silent, &sw,
                                                                                   s](const mad::SmpReply& r) {
        if (out.change) return;
        if (r.outcome != mad::SmpOutcome::kOk) {
          silent.push_back(s);
        } else if (mad::SwitchInfo::decode(r.data).port_state_change) {
          out.change = true;
          out.reason = "PortStateChange on switch " + format_guid(sw.guid) + " (DR " + format_dr_path(sw.dr_path) + ")";
        }
      });
    }
    batch.wait();
    ask = std::move(silent);
  }
  if (!out.change && !ask.empty()) {
    const Node& sw = topo.node(ask.front());
    out.change = true;
    out.reason = "switch " + format_guid(sw.guid) + " (DR " + format_dr_path(sw.dr_path) +
                 ") did not answer SwitchInfo " + std::to_string(rounds + 1) + " times";
  }
  return out;
}

}  // namespace smd
