#include "routing/engines/dfsssp/dfsssp_factory.h"

#include "routing/engines/dfsssp/dfsssp.h"
#include "routing/engines/plain_engine_factory.h"
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
    if (!vls_ok || !spread_ok) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    const DfssspOptions& o = options.engines.get<DfssspOptions>();
    return {{"max_vls", o.max_vls == 0 ? "auto" : std::to_string(o.max_vls)},
            {"spread_vls", o.spread_vls ? "on" : "off"}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<DfssspEngine>(options.engines.get<DfssspOptions>(), options.data_vls);
  }
};

}  // namespace

const EngineFactory& sssp_factory() {
  static const PlainEngineFactory<SsspEngine> factory("sssp");
  return factory;
}

const EngineFactory& dfsssp_factory() {
  static const DfssspFactory factory;
  return factory;
}

}  // namespace smd
