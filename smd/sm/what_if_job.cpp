#include "smd/sm/what_if_job.h"

#include <chrono>
#include <sstream>

#include "routing/whatif/drain_plan.h"
#include "routing/whatif/drain_target.h"
#include "smd/report/drain_report_output.h"

namespace smd {
namespace {

/// The parts named, resolved on the whole fabric (a drained cable is a cable there), indexes of in.fabric; a
/// part named twice (a cable by both ends) counts once, as `smctl drain` reads it (resolve_drain_request).
Result<std::vector<DrainPart>> resolve_on_fabric(const WhatIfInput& in, std::string_view command) {
  return resolve_drain_request(in.fabric ? *in.fabric : *in.topo, in.parts, command);
}

}  // namespace

Result<control::Json> run_what_if_drain(const WhatIfInput& in) {
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  if (!in.topo || !in.lids || !in.tables) {
    return make_error(ErrorCode::kDeclined, "smctl what-if drain: no programmed fabric yet (no sweep has routed)");
  }
  // Errors name the operator's command, not the offline CLI's --drain.
  constexpr std::string_view kCommand = "smctl what-if drain";
  auto parts = resolve_on_fabric(in, kCommand);
  if (!parts) return parts.error();
  // The same sweep made both topologies with the same node indexes; a part is still moved by GUID, so the
  // two may never disagree silently.
  if (in.fabric && in.fabric != in.topo) {
    for (DrainPart& part : *parts) {
      const auto node = in.topo->find(in.fabric->node(part.node).guid);
      const auto peer = part.kind == DrainPart::Kind::kCable ? in.topo->find(in.fabric->node(part.peer).guid)
                                                              : std::optional<NodeIndex>(kNoNode);
      if (!node || !peer) {
        return make_error(ErrorCode::kInternal, std::string(kCommand) + " '" + part.text +
                                                    "': not in the routed topology of the same sweep");
      }
      part.node = *node;
      part.peer = *peer;
    }
  }
  DrainOptions options;
  options.chain = in.routing.engines;
  options.routing = in.routing.options;
  options.quality.perm_seeds = in.seeds;
  options.quality.ebb_samples = 0;  // the report shows max loads; eBB would only cost time
  options.quality.max_shifts = in.max_shifts;
  options.partitions = &in.partitions;
  options.minimal_repair = in.routing.repair == RepairMode::kMinimal;
  auto report = what_if_drain(*in.topo, *in.lids, *in.tables, *parts, options);
  if (!report) return report.error().with_context(std::string(kCommand));
  DrainTimings tm;
  tm.what_if = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  tm.total = tm.what_if;
  const std::string engine_before = in.tables->engine;
  std::ostringstream text;
  print_drain_report(text, *in.topo, engine_before, *report, tm);
  // The report is built in key order for people (ordered_json); the control socket's JSON type keeps its own.
  control::Json out;
  out["report"] = control::Json::parse(drain_report_json(*in.topo, engine_before, *report, tm).dump());
  out["text"] = text.str();
  // The verdict smctl's exit code reads (5 when not safe, smctl.8): no CA pair loses every path.
  out["safe"] = report->lost_pairs == 0;
  out["lost_pairs"] = report->lost_pairs;
  out["cut_off"] = report->cut_off;
  out["what_if_ms"] = tm.what_if;
  return out;
}

}  // namespace smd
