// Engine registry: engines by name, and the chain that tries them in policy order.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/engine.h"
#include "routing/engines/engine_factory.h"

namespace smd {

/// Every built-in engine's factory, in registry order (minhop, updn, ftree, sssp,
/// dfsssp): the order the policy loader
/// reads their sections in and the summary prints their options in.
std::span<const EngineFactory* const> engine_factories();

/// Sorted names of every built-in engine ("dfsssp", "ftree", "minhop", "sssp", "updn").
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
/// that failed before it. Errors: kVerifyFailed/kDeclined when every engine failed (message lists each).
struct ChainResult {
  RoutingTables tables;
  std::vector<ChainAttempt> declined;
};
Result<ChainResult> route_with_chain(const std::vector<std::string>& chain, const RoutingOptions& options,
                                     const Topology& topo, const LidMap& lids);

}  // namespace smd
