// EngineFactory: one routing engine's two-phase configuration, registered by name (routing/chain). Phase
// one, when the policy loads: parse() reads and checks the engine's own section routing.<name> and may
// fail, with the problem at the key's file:line:column. Phase two, when a sweep routes: create() builds
// the engine from options phase one accepted, and cannot fail. Each engine folder holds its factory
// beside the algorithm (minhop_factory.cpp, updn_factory.cpp, ftree_factory.cpp).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/engine.h"
#include "routing/engines/engine_options.h"
#include "routing/engines/option_reader.h"

namespace smd {

/// One "key=value" of an engine's options in the one-line policy summary (key without the section).
struct OptionSummary {
  std::string key;
  std::string value;
};

/// The defaults describe an engine without options: routing.<name> is then not a policy key.
class EngineFactory {
 public:
  virtual ~EngineFactory() = default;

  /// Registry and policy name ("updn"), also the name of the engine's section routing.<name>.
  virtual std::string_view name() const = 0;
  /// The policy section, routing.<section>: the name, unless the name is not a plain key (OpenSM's
  /// "torus-2QoS" reads its options from routing.torus_2qos).
  virtual std::string_view section() const { return name(); }

  /// True when the engine has a policy section. When false, routing.<name> is an unknown key like any
  /// other and parse() is never called.
  virtual bool has_options() const { return false; }

  /// Phase one: read and check the section through `in` (every key, even after a problem, so that the
  /// problem earliest in the file is the one reported). Returns the options, or nullptr when a value was
  /// wrong; `in` has then recorded why and where. An absent section reads as an empty one: the defaults.
  virtual std::shared_ptr<const EngineOptions> parse(OptionReader& in) const {
    (void)in;
    return nullptr;
  }

  /// The engine's options from `options.engines` (its defaults when none were set) as summary pairs, in
  /// the order config/smd.yaml documents the keys.
  virtual std::vector<OptionSummary> summarise(const RoutingOptions& options) const {
    (void)options;
    return {};
  }

  /// Phase two: the engine, built from its own options in `options.engines` (defaults when absent) and
  /// the routing-wide ones. Cannot fail: everything was checked by parse().
  virtual std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const = 0;
};

}  // namespace smd
