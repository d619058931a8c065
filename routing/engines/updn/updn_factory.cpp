#include "routing/engines/updn/updn_factory.h"

#include "routing/engines/updn/updn.h"

namespace smd {

const EngineFactory& updn_factory() {
  static const RootedEngineFactory<UpdnOptions, UpDownEngine> factory;
  return factory;
}

}  // namespace smd
