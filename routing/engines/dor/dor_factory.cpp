#include "routing/engines/dor/dor_factory.h"

#include "routing/engines/common/routing_order.h"
#include "routing/engines/dor/dor.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

const EngineFactory& dor_factory() {
  static const SectionEngineFactory<DorOptions, DorEngine> factory;
  return factory;
}

}  // namespace smd
