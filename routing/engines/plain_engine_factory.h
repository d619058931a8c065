// The registry entry every engine without options of its own shares (minhop, sssp): a name and a
// constructor call, nothing to parse or summarise.
#pragma once

#include <memory>
#include <string_view>

#include "routing/engines/engine_factory.h"

namespace smd {

/// The registry entry of an engine without options (minhop, sssp): routing.<name> is not a policy key.
template <class Engine>
class PlainEngineFactory final : public EngineFactory {
 public:
  /// `name` must outlive the factory (a string literal).
  explicit PlainEngineFactory(std::string_view name) : name_(name) {}
  std::string_view name() const override { return name_; }
  std::unique_ptr<RoutingEngine> create(const RoutingOptions&) const override { return std::make_unique<Engine>(); }

 private:
  std::string_view name_;
};

}  // namespace smd
