#include "routing/engines/minhop/minhop_factory.h"

#include "routing/engines/common/routing_order.h"
#include "routing/engines/minhop/minhop.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

const EngineFactory& minhop_factory() {
  static const SectionEngineFactory<MinhopOptions, MinHopEngine> factory;
  return factory;
}

}  // namespace smd
