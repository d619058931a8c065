#include "routing/engines/updn/updn_factory.h"

#include "routing/engines/updn/updn.h"

namespace smd {
namespace {

class UpdnFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return UpdnOptions::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<UpdnOptions>();
    if (!in.read_guid_list("roots", options->roots)) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    return {{"roots", summarise_guids(options.engines.get<UpdnOptions>().roots)}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<UpDownEngine>(options.engines.get<UpdnOptions>(), options.adaptive);
  }
};

}  // namespace

const EngineFactory& updn_factory() {
  static const UpdnFactory factory;
  return factory;
}

std::unique_ptr<RoutingEngine> make_updn_engine(const RoutingOptions& options) {
  return updn_factory().create(options);
}

}  // namespace smd
