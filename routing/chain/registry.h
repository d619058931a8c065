// Engine registry: engines by name, and the chain that tries them in policy order.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/engine.h"
#include "routing/engines/engine_factory.h"
#include "routing/verify/verify.h"

namespace smd {

/// Every built-in engine's factory, in registry order (minhop, dor, lash, nue, torus-2QoS, updn,
/// dnup, ftree, sssp, dfsssp, file): the order the policy loader
/// reads their sections in and the summary prints their options in.
std::span<const EngineFactory* const> engine_factories();

/// Sorted names of every built-in engine ("dfsssp", "dnup", "dor", "file", "ftree", "lash", "minhop", "nue", "sssp",
/// "torus-2QoS", "updn").
std::vector<std::string> engine_names();

/// Construct engine `name` with `options` (phase two of its factory). Errors: kInvalidInput naming the
/// known engines.
Result<std::unique_ptr<RoutingEngine>> make_engine(std::string_view name, const RoutingOptions& options);

/// Why one engine of a chain did not produce the tables.
struct ChainAttempt {
  std::string engine;
  Error error;
};

/// Tables from the first engine of `chain` that succeeds and passes verification, plus the attempts
/// that failed before it. One exception keeps an earlier engine's tables: an engine that promised deadlock
/// freedom and whose channel dependency graph has a cycle that only switch-sourced routes close
/// (ca_safe_report) is kept, with deadlock_free false and `warning` saying so, unless a later engine's
/// tables are deadlock-free for all routes (a later engine without that promise is no better, and its
/// CA routes may be worse). Errors: kVerifyFailed/kDeclined when every engine failed (message lists each).
struct ChainResult {
  RoutingTables tables;
  VerifyReport verified;  ///< the verifier's report on `tables`
  std::vector<ChainAttempt> declined;
  std::string warning;    ///< non-empty when `tables` are such a kept engine's: why
  double compute_ms = 0;  ///< the chosen engine's compute()
  double verify_ms = 0;   ///< verification of the chosen tables (the extra check included)
};

/// A check a caller adds to verification (the planner: the SL2VL plan against VL-layered tables); an error
/// declines that engine as a verification failure does.
using ChainCheck = std::function<Status(const RoutingTables&)>;

/// For tables whose deadlock-freedom promise failed verification (a cycle in the channel dependency
/// graph): their report verified without the promise when the graph of CA-injected traffic is acyclic,
/// so that only routes a switch sends from its own port 0 (traps, PMA answers) close the cycle; nullopt
/// when that graph has a cycle too or the tables fail for another reason.
std::optional<VerifyReport> ca_safe_report(const Topology& topo, const LidMap& lids, const RoutingTables& tables);

/// `options` with routing.ftree.roots replaced by `roots`, and whether `options` name any: the sweep
/// hands ftree the roots of its last fat tree when levels counted up from the CAs fail (RoutingTables::
/// tree_roots).
RoutingOptions with_ftree_roots(RoutingOptions options, std::vector<Guid> roots);
bool ftree_roots_configured(const RoutingOptions& options);

/// The warning of a ChainResult whose tables are engine `engine`'s, kept by the rule above.
std::string ca_safe_warning(const std::string& engine);
Result<ChainResult> route_with_chain(const std::vector<std::string>& chain, const RoutingOptions& options,
                                     const Topology& topo, const LidMap& lids, const ChainCheck& extra_check = {});

}  // namespace smd
