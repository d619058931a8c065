#include "routing/engines/updn/updn_factory.h"

#include "routing/engines/section_engine_factory.h"
#include "routing/engines/updn/updn.h"

namespace smd {

const EngineFactory& updn_factory() {
  static const SectionEngineFactory<UpdnOptions, UpDownEngine> factory;
  return factory;
}

}  // namespace smd
