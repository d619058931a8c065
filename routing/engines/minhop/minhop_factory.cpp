#include "routing/engines/minhop/minhop_factory.h"

#include "routing/engines/minhop/minhop.h"

namespace smd {
namespace {

class MinHopFactory final : public EngineFactory {
 public:
  std::string_view name() const override { return "minhop"; }
  std::unique_ptr<RoutingEngine> create(const RoutingOptions&) const override {
    return std::make_unique<MinHopEngine>();
  }
};

}  // namespace

const EngineFactory& minhop_factory() {
  static const MinHopFactory factory;
  return factory;
}

std::unique_ptr<RoutingEngine> make_minhop_engine(const RoutingOptions& options) {
  return minhop_factory().create(options);
}

}  // namespace smd
