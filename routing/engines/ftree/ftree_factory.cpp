#include "routing/engines/ftree/ftree_factory.h"

#include "routing/engines/ftree/ftree.h"

namespace smd {
namespace {

class FtreeFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return FtreeOptions::kEngine; }
  bool has_options() const override { return true; }

  std::shared_ptr<const EngineOptions> parse(OptionReader& in) const override {
    auto options = std::make_shared<FtreeOptions>();
    if (!in.read_guid_list("roots", options->roots)) return nullptr;
    return options;
  }

  std::vector<OptionSummary> summarise(const RoutingOptions& options) const override {
    return {{"roots", summarise_guids(options.engines.get<FtreeOptions>().roots)}};
  }

  std::unique_ptr<RoutingEngine> create(const RoutingOptions& options) const override {
    return std::make_unique<FatTreeEngine>(options.engines.get<FtreeOptions>(), options.adaptive);
  }
};

}  // namespace

const EngineFactory& ftree_factory() {
  static const FtreeFactory factory;
  return factory;
}

std::unique_ptr<RoutingEngine> make_ftree_engine(const RoutingOptions& options) {
  return ftree_factory().create(options);
}

}  // namespace smd
