#include "routing/engines/dnup/dnup_factory.h"

#include "routing/engines/dnup/dnup.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

const EngineFactory& dnup_factory() {
  static const SectionEngineFactory<DnupOptions, DnupEngine> factory;
  return factory;
}

}  // namespace smd
