// `smd plan --topology NETFILE`: the offline planner. Reads a netfile, assigns LIDs, routes with the
// policy's engine chain, verifies the tables and prints the routing-quality report (text or JSON), all
// without a fabric, so an operator can compare engines and policies before touching the subnet.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "smd/cli/roce_plan_output.h"

// Only CLI::App& is named here: the full CLI11 header (one of the costliest to compile) stays in the .cpp
// files that build or parse an App, so the tests of the command bodies do not pay for it.
namespace CLI {
class App;
}  // namespace CLI

namespace smd {

/// What `smd plan` was asked to do.
struct PlanArgs {
  std::string topology;         ///< --topology: ibsim netfile or ibnetdiscover output (required)
  std::string config;           ///< --config: policy YAML; "" = built-in defaults
  std::string format = "text";  ///< --format: text | json
  unsigned seeds = 20;          ///< --seeds: random permutations and random bisections (eBB) evaluated
  unsigned max_shifts = 2048;   ///< --max-shifts: shift patterns evaluated at most (0 = all N-1)
  unsigned linear_fdb_cap = 0;  ///< --linear-fdb-cap: LFT entries per switch (0 = as the netfile reader assumes)
  std::string lft_dump;         ///< --lft-dump: write every switch's LFT to this file ("" = don't)
  std::string opensm_lfts;      ///< --opensm-lfts: the same LFTs in OpenSM's opensm-lfts.dump format ("" = don't)
  RocePlanOptions roce;         ///< --roce-plan, --frr-dir, --compare, --svg, --pairs, --qps (format/seeds shared)
  bool adaptive = false;        ///< --adaptive: compute AR groups whatever the policy says (routing.adaptive)
  std::string ar_plan;          ///< --ar-plan: write the AR plan JSON here (implies --adaptive; "" = don't)
  /// --vl-cap: PortInfo:VLCap (1 = VL0 .. 5 = VL0-14) of every port, which a netfile does not carry; 0 =
  /// unknown (then only the policy limits a VL-layered engine, and no SL2VL drop is foreseen).
  unsigned vl_cap = 0;
  /// --guid2lid: a guid2lid file (the daemon's state_dir/guid2lid): its ports keep their LIDs, so the plan
  /// routes the LIDs the fabric has ("" = LIDs assigned afresh, in netfile order).
  std::string guid2lid;
  /// --drain (repeatable): switches and cables to take out of routing in a what-if (routing/whatif/
  /// drain_target.h has the names accepted); non-empty = print the drain report instead of the plan's.
  std::vector<std::string> drain;
};

/// Exit codes of `smd plan`: 0 planned; 2 bad input (netfile, policy, LIDs, a fabric in several
/// islands that no cable joins); 3 no engine of the chain produced tables that pass verification;
/// 4 the LFT dump or the AR plan could not be written (or the winning engine computes no AR plan);
/// 5 (--drain only) the drain would cut some CA pair off, every path lost: a script refuses it unless forced.
inline constexpr int kPlanBadInput = 2;
inline constexpr int kPlanRoutingFailed = 3;
inline constexpr int kPlanWriteFailed = 4;
inline constexpr int kPlanDrainCutsOff = 5;

/// Run the planner: report on `out`, errors (one line each, prefixed "smd plan: ") on `err`.
/// Returns the exit code above.
int run_plan(const PlanArgs& args, std::ostream& out, std::ostream& err);

/// Register the `plan` subcommand on `app`; on failure its callback throws CLI::RuntimeError(code).
void add_plan_command(CLI::App& app);

}  // namespace smd
