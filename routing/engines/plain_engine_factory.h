// The registry entry an engine without options of its own can share: a name and a
// constructor call, nothing to parse or summarise.
#pragma once

#include <memory>
#include <string_view>

#include "routing/engines/engine_factory.h"

namespace smd {

/// The registry entry of an engine without options: routing.<name> is not a policy key. (minhop and sssp
/// had this shape until they took a routing order.)
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
