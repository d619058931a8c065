#include "routing/engines/minhop/minhop_factory.h"

#include "routing/engines/common/routing_order.h"
#include "routing/engines/minhop/minhop.h"

namespace smd {
namespace {

class MinhopFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return MinhopOptions::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<MinhopOptions>();
    if (!read_routing_order(in, options->guid_routing_order)) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    return {{"guid_routing_order", summarise_order(options.engines.get<MinhopOptions>().guid_routing_order)}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<MinHopEngine>(options.engines.get<MinhopOptions>());
  }
};

}  // namespace

const EngineFactory& minhop_factory() {
  static const MinhopFactory factory;
  return factory;
}

std::unique_ptr<RoutingEngine> make_minhop_engine(const RoutingOptions& options) {
  return minhop_factory().create(options);
}

}  // namespace smd
