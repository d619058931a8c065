#include "routing/engines/ftree/ftree_factory.h"

#include "routing/engines/ftree/ftree.h"

namespace smd {

const EngineFactory& ftree_factory() {
  static const RootedEngineFactory<FtreeOptions, FatTreeEngine> factory;
  return factory;
}

}  // namespace smd
