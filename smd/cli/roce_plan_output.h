// `smd plan` RoCE side: the RoCEv2-equivalent route plan of the routed fabric written as JSON
// (docs/roce.md) and as one frr.conf per switch, and the IB-vs-RoCE comparison printed as a table or
// returned as JSON, with an optional SVG chart. routing/roce/ computes; this file does the I/O.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/roce/clos_plan.h"
#include "routing/roce/compare.h"
#include "routing/whatif/fabric_loss.h"

namespace smd {

/// What `smd plan` was asked to do on the RoCE side (the plan command's options of the same names).
struct RocePlanOptions {
  std::string plan_json;        ///< --roce-plan: write the route plan JSON here ("" = don't)
  std::string frr_dir;          ///< --frr-dir: write <dir>/<switch>/frr.conf ("" = don't)
  bool compare = false;         ///< --compare: run the IB-vs-RoCE comparison
  std::string format = "text";  ///< --format: text (print the table) | json (return it only)
  std::string svg;              ///< --svg: write the comparison chart here ("" = don't); needs compare
  std::string report;           ///< --report: write the HTML report here ("" = don't); implies compare
  std::string pairs_file;       ///< --pairs: extra pattern from "SRC DST" lines (host name or IP)
  unsigned qps = 0;             ///< --qps: roce::CompareOptions::qps, 1..64 (0 = not given)
  unsigned seeds = 20;          ///< --seeds: random permutations and bisections
  unsigned max_shifts = 64;     ///< shifts evaluated at most, evenly spread (0 = all N-1)
  std::uint32_t hash_seed = 0;  ///< fabric ECMP hash seed
  bool all_to_all = true;       ///< include the all-to-all pattern (N(N-1) flows: most of the run time)
  unsigned threads = 0;         ///< comparison threads (0 = hardware concurrency)
  /// --collectives: the AI collectives timed in the comparison (roce::parse_collectives; "none" = none).
  std::string collectives = roce::kDefaultCollectives;
  /// --job FILE (job_file.h) and --placement SPEC (roce/placement.h): the jobs the collectives run over,
  /// the files first, then the placements, each in the order given; none = the whole fabric. Either
  /// implies compare.
  std::vector<std::string> job_files;
  std::vector<std::string> placements;
  bool jobs_at_once = false;       ///< --jobs-at-once: the jobs share the fabric (roce/jobs_at_once.h)
  bool collectives_given = false;  ///< --collectives was on the command line (it implies --compare)
  /// --fail PART (repeatable, routing/whatif/drain_target.h names): run the comparison also on the fabric
  /// without these parts and report both (loss_comparison_output.h). Implies compare.
  std::vector<std::string> fail;

  /// True when any RoCE output was asked for.
  bool requested() const {
    return !plan_json.empty() || !frr_dir.empty() || compare || !svg.empty() || !report.empty() || !job_files.empty() ||
           !placements.empty() || collectives_given || jobs_at_once || !fail.empty();
  }
};

/// Do everything `options` asks: build the plan, write the JSON / FRR / SVG files, run the comparison and,
/// with format "text", print it as a table on `out`. Returns a JSON summary (files written, timings, the
/// comparison when run) that a JSON-format caller embeds in its own report.
/// Errors: kInvalidInput (address pools exhausted, bad pairs file, bad --collectives list, a bad --job file
/// (file:line) or --placement, fewer than 2 endpoints), kIo (a file
/// or directory could not be written; the message names the path).
/// With `loss` (the --fail parts taken out and routed, fabric_loss.h) the comparison runs before and after
/// (roce::compare_before_after): the text adds the before/after tables, the JSON `after_loss`, the SVG the
/// chart after below the chart before. With `options.report` the HTML report (comparison_report.h).
Result<nlohmann::ordered_json> run_roce_plan(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                             const RocePlanOptions& options, std::ostream& out,
                                             const FabricLoss* loss = nullptr);

/// The comparison as JSON: {endpoints, qps, eecmp_qps, notes, collectives[...] (collectives_json),
/// patterns[{name, instances, schemes[{name, figures}]}]}.
nlohmann::ordered_json comparison_json(const roce::Comparison& comparison);

/// The comparison as fixed-width text tables: the collectives, then one row per (pattern, scheme).
void print_comparison(std::ostream& out, const roce::Comparison& comparison);

/// Parse a pair list: one flow per line, "SRC DST", each a host's NodeDescription (its first addressed
/// port) or an IPv4 address from the plan; '#' starts a comment. `endpoint_of_host` maps plan host
/// index -> comparison endpoint index (inverse of roce::compare_endpoints). Errors: kInvalidInput with
/// file:line, or naming the file when it cannot be opened or read, is not a regular file (a FIFO,
/// /dev/zero) or exceeds 64 MiB.
Result<std::vector<roce::FlowPair>> read_pairs_file(const std::string& path, const roce::RoutePlan& plan,
                                                    const std::vector<std::uint32_t>& endpoint_of_host);

}  // namespace smd
