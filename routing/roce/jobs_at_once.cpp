#include "routing/roce/jobs_at_once.h"

#include <unordered_map>

namespace smd::roce {

Result<Collective> merge_jobs_at_once(std::span<const Collective> per_job, std::span<const std::string> names) {
  if (per_job.size() < 2 || names.size() != per_job.size()) {
    return make_error(ErrorCode::kInvalidInput, "jobs at once: need 2 or more jobs, each with a name");
  }
  const Collective& first = per_job[0];
  Collective merged{first.name, 0, first.bus_factor, first.phases};
  for (auto& phase : merged.phases) phase.instance.flows.clear();
  std::unordered_map<std::uint32_t, std::size_t> job_of;  // endpoint -> first job sending or receiving on it
  for (std::size_t j = 0; j < per_job.size(); ++j) {
    const Collective& c = per_job[j];
    const std::string pair = "jobs " + names[0] + " and " + names[j] + ": " + c.name;
    bool same = c.phases.size() == first.phases.size();
    for (std::size_t p = 0; same && p < c.phases.size(); ++p) {
      same = c.phases[p].repeat == first.phases[p].repeat && c.phases[p].volume == first.phases[p].volume;
    }
    if (!same) {
      return make_error(ErrorCode::kInvalidInput,
                        "jobs at once: " + pair + " over " + std::to_string(first.ranks) + " and " +
                            std::to_string(c.ranks) + " ranks: their phases differ; run them one after the other");
    }
    for (std::size_t p = 0; p < c.phases.size(); ++p) {
      for (const FlowPair& f : c.phases[p].instance.flows) {
        for (const std::uint32_t e : {f.src, f.dst}) {
          const auto [it, fresh] = job_of.emplace(e, j);
          if (!fresh && it->second != j) {
            return make_error(ErrorCode::kInvalidInput, "jobs at once: endpoint " + std::to_string(e) +
                                                            " is in job " + names[it->second] + " and in job " +
                                                            names[j]);
          }
        }
      }
      auto& flows = merged.phases[p].instance.flows;
      flows.insert(flows.end(), c.phases[p].instance.flows.begin(), c.phases[p].instance.flows.end());
    }
    merged.ranks += c.ranks;
  }
  return merged;
}

}  // namespace smd::roce
