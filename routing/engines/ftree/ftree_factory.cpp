#include "routing/engines/ftree/ftree_factory.h"

#include "routing/engines/ftree/ftree.h"
#include "routing/engines/section_engine_factory.h"

namespace smd {

const EngineFactory& ftree_factory() {
  static const SectionEngineFactory<FtreeOptions, FatTreeEngine> factory;
  return factory;
}

}  // namespace smd
