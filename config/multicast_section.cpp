#include "config/multicast_section.h"

namespace smd {

void read_multicast(MapReader multicast, MulticastPolicy& out) {
  multicast.read_bool("consolidate_ipv6_snm", out.consolidate_ipv6_snm);
  multicast.finish();
}

}  // namespace smd
