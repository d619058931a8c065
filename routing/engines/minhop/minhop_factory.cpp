#include "routing/engines/minhop/minhop_factory.h"

#include "routing/engines/minhop/minhop.h"
#include "routing/engines/plain_engine_factory.h"

namespace smd {

const EngineFactory& minhop_factory() {
  static const PlainEngineFactory<MinHopEngine> factory("minhop");
  return factory;
}

}  // namespace smd
