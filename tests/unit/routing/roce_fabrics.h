// Fabrics the RoCE plan tests share.
#pragma once

#include "routing/fabric_gen/fabric_gen.h"

namespace smd::roce::test {

/// A 3-level pod fat tree: 3 pods of 2 leaves (2 hosts each) and 2 aggregation switches, 2 cores per
/// aggregation group (4 cores): three ASN tiers, one ASN per pod.
inline Result<Topology> small_fat_tree3() {
  FatTree3Spec spec;
  spec.pods = 3;
  spec.leaves_per_pod = 2;
  spec.aggs_per_pod = 2;
  spec.cores_per_agg_group = 2;
  spec.leaf_down_ports = 2;
  spec.hosts_per_leaf = 2;
  return make_fat_tree3(spec);
}

}  // namespace smd::roce::test
