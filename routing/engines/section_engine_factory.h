// The registry entry every engine with a policy section of its own shares (ftree and updn: routing.<name>.roots;
// dfsssp: max_vls, spread_vls). What the section holds, how it is read and how it reads back in the policy
// summary are the options type's own; naming, parsing into a fresh value and building the engine are written
// once here.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "routing/engines/engine_factory.h"

namespace smd {

/// The registry entry of an engine with options. `Options` (an EngineOptions) has kEngine (the registry and
/// section name), `bool read(OptionReader&)` (false when a key was refused; the reader has the error) and
/// `std::vector<OptionSummary> summary() const`; `Engine` is built as Engine(options, routing options).
template <class Options, class Engine>
class SectionEngineFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return Options::kEngine; }
  std::string_view section() const override {
    if constexpr (requires { Options::kSection; }) {
      return Options::kSection;
    } else {
      return Options::kEngine;
    }
  }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<Options>();
    if (!options->read(in)) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    return options.engines.get<Options>().summary();
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<Engine>(options.engines.get<Options>(), options);
  }
};

}  // namespace smd
