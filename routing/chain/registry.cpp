#include "routing/chain/registry.h"

#include <algorithm>
#include <exception>

#include "routing/engines/ftree/ftree.h"
#include "routing/engines/minhop/minhop.h"
#include "routing/engines/updn/updn.h"
#include "routing/verify/verify.h"

namespace smd {
namespace {

/// One built-in engine: its policy name and its factory. Adding an engine is one include and one row.
struct EngineEntry {
  std::string_view name;
  std::unique_ptr<RoutingEngine> (*make)(const RoutingOptions&);
};

constexpr EngineEntry kEngines[] = {
    {"minhop", &make_minhop_engine},
    {"updn", &make_updn_engine},
    {"ftree", &make_ftree_engine},
};

std::string join_names() {
  std::string out;
  for (const auto& n : engine_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::vector<std::string> engine_names() {
  std::vector<std::string> names;
  for (const auto& e : kEngines) names.emplace_back(e.name);
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::unique_ptr<RoutingEngine>> make_engine(std::string_view name, const RoutingOptions& options) {
  for (const auto& e : kEngines) {
    if (e.name == name) return e.make(options);
  }
  return make_error(ErrorCode::kInvalidInput,
                    "unknown routing engine \"" + std::string(name) + "\" (known: " + join_names() + ")");
}

Result<ChainResult> route_with_chain(const std::vector<std::string>& chain, const RoutingOptions& options,
                                     const Topology& topo, const LidMap& lids) {
  if (chain.empty()) return make_error(ErrorCode::kInvalidInput, "routing engine chain is empty");
  ChainResult result;
  for (const auto& name : chain) {
    auto engine = make_engine(name, options);
    if (!engine) {
      result.declined.push_back(ChainAttempt{name, engine.error()});
      continue;
    }
    Result<RoutingTables> tables = make_error(ErrorCode::kInternal, "not computed");
    try {
      tables = (*engine)->compute(topo, lids);
    } catch (const std::exception& e) {
      // An engine bug (or bad_alloc) must not take the SM down: the next engine gets its chance.
      tables = make_error(ErrorCode::kInternal, std::string("exception: ") + e.what());
    }
    if (!tables) {
      result.declined.push_back(ChainAttempt{name, tables.error()});
      continue;
    }
    if (tables->engine.empty()) tables->engine = name;
    auto report = verify_tables(topo, lids, *tables, tables->deadlock_free);
    if (!report) {
      result.declined.push_back(ChainAttempt{name, report.error().with_context("verification")});
      continue;
    }
    result.tables = std::move(tables).value();
    return result;
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
