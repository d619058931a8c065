#include "routing/engines/dfsssp/dfsssp_factory.h"

#include "routing/engines/dfsssp/dfsssp.h"
#include "routing/engines/common/routing_order.h"
#include "routing/model/vl_layers.h"

namespace smd {
namespace {

class DfssspFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return DfssspOptions::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<DfssspOptions>();
    // Both keys are read even when the first is wrong, so the earliest problem in the file is reported.
    const bool vls_ok = in.read_unsigned("max_vls", 0, kMaxDataVls, options->max_vls);
    const bool spread_ok = in.read_bool("spread_vls", options->spread_vls);
    const bool order_ok = read_routing_order(in, options->guid_routing_order);
    if (!vls_ok || !spread_ok || !order_ok) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    const DfssspOptions& o = options.engines.get<DfssspOptions>();
    return {{"max_vls", o.max_vls == 0 ? "auto" : std::to_string(o.max_vls)},
            {"spread_vls", o.spread_vls ? "on" : "off"},
            {"guid_routing_order", summarise_order(o.guid_routing_order)}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<DfssspEngine>(options.engines.get<DfssspOptions>(), options.data_vls);
  }
};

class SsspFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return SsspOptions::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<SsspOptions>();
    if (!read_routing_order(in, options->guid_routing_order)) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    return {{"guid_routing_order", summarise_order(options.engines.get<SsspOptions>().guid_routing_order)}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<SsspEngine>(options.engines.get<SsspOptions>());
  }
};

}  // namespace

const EngineFactory& sssp_factory() {
  static const SsspFactory factory;
  return factory;
}

const EngineFactory& dfsssp_factory() {
  static const DfssspFactory factory;
  return factory;
}

std::unique_ptr<RoutingEngine> make_sssp_engine(const RoutingOptions& options) {
  return sssp_factory().create(options);
}

std::unique_ptr<RoutingEngine> make_dfsssp_engine(const RoutingOptions& options) {
  return dfsssp_factory().create(options);
}

}  // namespace smd
