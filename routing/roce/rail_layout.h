// Multi-HCA hosts as the IB-vs-RoCE comparison sees them: which endpoints (CA ports) belong to one host,
// and which rail each is on. An AI host carries one HCA per GPU (4-8), each cabled to the leaf of its rail;
// NCCL runs one rank per GPU, so a rank is an HCA, and the ranks of one host talk over NVLink, not the
// fabric (rail_collectives.h).
//
// How a host is recognised: from the HCAs' NodeDescriptions. A Linux HCA reports "<hostname> <device>"
// ("dgx-a17 mlx5_3": the kernel's default, set by rdma-core's node description service), and smd-fabric's
// rail generator names its HCAs the same way ("host-5 mlx5_3"). The name is split at its LAST space: host,
// then device. The fabric is multi-HCA when every endpoint's name splits so, every host has the same number
// R >= 2 of devices, and no device name repeats within a host. Rail i of a host is its i-th device in
// natural order (digit runs compared as numbers: mlx5_2 < mlx5_10), the order in which NCCL numbers NICs
// by PCI path on the usual hosts. Anything else (one HCA per host, names without a space, hosts with
// different counts) is a single-HCA fabric: rank = endpoint, as before; `why_not` says which rule failed
// when some names looked like "<host> <device>".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/hop_table.h"

namespace smd::roce {

/// Hosts x rails over the comparison's endpoints (compare_endpoints' order).
struct RailLayout {
  std::size_t rails = 0;                        ///< R: HCAs per host (>= 2)
  std::vector<std::string> host_names;          ///< in order of their first endpoint
  std::vector<std::uint32_t> hca;               ///< hca[h * rails + i]: endpoint of host h's rail-i HCA
  std::vector<std::uint32_t> host_of_endpoint;  ///< endpoint -> host index

  std::size_t hosts() const { return host_names.size(); }
  std::uint32_t endpoint(std::size_t host, std::size_t rail) const { return hca[host * rails + rail]; }
};

/// The layout found in the endpoints' NodeDescriptions, or none (a single-HCA fabric).
struct RailDetection {
  std::optional<RailLayout> layout;
  std::string why_not;  ///< set when names had the "<host> <device>" form but the rules above failed
};

/// Find the hosts among `endpoint_names` (endpoint e's CA NodeDescription). Cost: O(E log E).
RailDetection detect_rail_layout(std::span<const std::string> endpoint_names);

/// The hosts of a job given as endpoints (ranks): hosts in the order their first HCA appears. Errors:
/// kInvalidInput naming the host when the job holds some but not all of a host's HCAs (a rail job takes
/// whole hosts), or an endpoint out of range.
Result<std::vector<std::uint32_t>> job_hosts(const RailLayout& layout, std::span<const std::uint32_t> ranks);

/// The job's endpoints host by host, rails in order within a host (the rank order of a rail job).
std::vector<std::uint32_t> host_ranks(const RailLayout& layout, std::span<const std::uint32_t> hosts);

/// Each host's leaf, for placement in units of hosts: the leaf of its rail-0 HCA (on a rail-optimized
/// fabric every rail's leaf of a scalable unit stands for the unit). `leaf_of_endpoint` in endpoint order.
std::vector<SwitchIndex> host_leaves(const RailLayout& layout, std::span<const SwitchIndex> leaf_of_endpoint);

/// "<host> <device>" split at the last space; nullopt when there is no space with text on both sides.
std::optional<std::pair<std::string, std::string>> split_host_device(const std::string& name);

/// Natural order of device names: runs of digits compare as numbers ("mlx5_2" < "mlx5_10").
bool natural_less(const std::string& a, const std::string& b);

}  // namespace smd::roce
