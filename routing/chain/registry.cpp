#include "routing/chain/registry.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "routing/engines/dfsssp/dfsssp_factory.h"
#include "routing/engines/dnup/dnup_factory.h"
#include "routing/engines/dor/dor_factory.h"
#include "routing/engines/file/file_factory.h"
#include "routing/engines/ftree/ftree_factory.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/engines/lash/lash_factory.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/engines/nue/nue_factory.h"
#include "routing/engines/torus_2qos/torus_2qos_factory.h"
#include "routing/engines/updn/updn_factory.h"
#include "routing/verify/verify.h"

namespace smd {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string join_names() {
  std::string out;
  for (const auto& n : engine_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::span<const EngineFactory* const> engine_factories() {
  // Adding an engine is one include and one entry here; its options live in its own folder.
  static const EngineFactory* const factories[] = {
      &minhop_factory(), &dor_factory(),   &lash_factory(), &nue_factory(),    &torus_2qos_factory(), &updn_factory(),
      &dnup_factory(),   &ftree_factory(), &sssp_factory(), &dfsssp_factory(), &file_factory()};
  return factories;
}

std::vector<std::string> engine_names() {
  std::vector<std::string> names;
  for (const EngineFactory* f : engine_factories()) names.emplace_back(f->name());
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::unique_ptr<RoutingEngine>> make_engine(std::string_view name, const RoutingOptions& options) {
  for (const EngineFactory* f : engine_factories()) {
    if (f->name() == name) return f->create(options);
  }
  return make_error(ErrorCode::kInvalidInput,
                    "unknown routing engine \"" + std::string(name) + "\" (known: " + join_names() + ")");
}

std::optional<VerifyReport> ca_safe_report(const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  auto report = verify_tables(topo, lids, tables, /*require_deadlock_free=*/false);
  if (!report || report->deadlock_free || !report->ca_deadlock_free) return std::nullopt;
  return std::move(report).value();
}

RoutingOptions with_ftree_roots(RoutingOptions options, std::vector<Guid> roots) {
  // Only the roots change: the CN/IO lists and max_reverse_hops stay as the policy gave them.
  FtreeOptions ftree = options.engines.get<FtreeOptions>();
  ftree.roots = std::move(roots);
  options.engines.set(std::move(ftree));
  return options;
}

bool ftree_roots_configured(const RoutingOptions& options) {
  return !options.engines.get<FtreeOptions>().roots.empty();
}

std::string ca_safe_warning(const std::string& engine) {
  return "engine " + engine +
         "'s tables are used although their channel dependency graph has a cycle: only routes that switches "
         "without CAs send from port 0 (traps, PMA answers) close it, CA-injected traffic cannot deadlock, and "
         "no later engine of the chain routes deadlock-free";
}

Result<ChainResult> route_with_chain(const std::vector<std::string>& chain, const RoutingOptions& options,
                                     const Topology& topo, const LidMap& lids, const ChainCheck& extra_check) {
  if (chain.empty()) return make_error(ErrorCode::kInvalidInput, "routing engine chain is empty");
  ChainResult result;
  std::optional<ChainResult> kept;  // the first engine's tables that ca_safe_report keeps
  for (const auto& name : chain) {
    auto engine = make_engine(name, options);
    if (!engine) {
      result.declined.push_back(ChainAttempt{name, engine.error()});
      continue;
    }
    Result<RoutingTables> tables = make_error(ErrorCode::kInternal, "not computed");
    auto start = Clock::now();
    try {
      tables = (*engine)->compute(topo, lids);
    } catch (const std::exception& e) {
      // An engine bug (or bad_alloc) must not take the SM down: the next engine gets its chance.
      tables = make_error(ErrorCode::kInternal, std::string("exception: ") + e.what());
    }
    const double compute_ms = ms_since(start);
    if (!tables) {
      result.declined.push_back(ChainAttempt{name, tables.error()});
      continue;
    }
    if (tables->engine.empty()) tables->engine = name;
    start = Clock::now();
    auto report = verify_tables(topo, lids, *tables, tables->deadlock_free);
    if (report && extra_check) {
      if (Status st = extra_check(*tables); !st.ok()) report = st.error();
    }
    if (!report) {
      result.declined.push_back(ChainAttempt{name, report.error().with_context("verification")});
      if (!kept && tables->deadlock_free) {
        auto safe = ca_safe_report(topo, lids, *tables);
        if (safe && (!extra_check || extra_check(*tables).ok())) {
          std::string warning = ca_safe_warning(tables->engine);
          kept = ChainResult{std::move(tables).value(), *safe, {}, std::move(warning), compute_ms, ms_since(start)};
          kept->tables.deadlock_free = false;
        }
      }
      continue;
    }
    const double verify_ms = ms_since(start);
    if (kept && !report->deadlock_free) {
      result.declined.push_back(ChainAttempt{
          name, make_error(ErrorCode::kDeclined, "its routes are not deadlock-free either; " + kept->tables.engine +
                                                     "'s, safe for CA-injected traffic, are kept")});
      continue;
    }
    result.tables = std::move(tables).value();
    result.verified = std::move(report).value();
    result.compute_ms = compute_ms;
    result.verify_ms = verify_ms;
    return result;
  }
  if (kept) {
    kept->declined = std::move(result.declined);
    return std::move(*kept);
  }
  // Every engine failed: say why for each, in chain order. The code tells the caller whether any
  // engine produced tables that were wrong (kVerifyFailed) or all simply did not apply (kDeclined).
  bool any_verify = false;
  bool all_declined = true;
  std::string message = "no routing engine succeeded:";
  for (const auto& a : result.declined) {
    any_verify |= a.error.code == ErrorCode::kVerifyFailed;
    all_declined &= a.error.code == ErrorCode::kDeclined;
    message += " [" + a.engine + ": " + to_string(a.error.code) + ": " + a.error.message + "]";
  }
  const ErrorCode code = all_declined ? ErrorCode::kDeclined
                         : any_verify ? ErrorCode::kVerifyFailed
                                      : result.declined.front().error.code;
  return make_error(code, message);
}

}  // namespace smd
