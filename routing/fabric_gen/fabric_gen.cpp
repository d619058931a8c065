// Tree-shaped generators (k-ary n-tree, leaf/spine, 3-level fat tree) and the small issue fabrics.
// Torus and random graphs live in fabric_gen_graph.cpp.
#include "routing/fabric_gen/fabric_gen.h"

#include <cmath>

#include "routing/fabric_gen/fabric_gen_builder.h"

namespace smd {
namespace fabric_gen {

void Builder::assign_guids(Node& n, std::size_t& added, std::size_t limit, const char* what) {
  if (++added <= limit) {
    guids_.assign(n);
    return;
  }
  if (too_many_.empty()) {
    too_many_ = "more than " + std::to_string(limit) + " " + what +
                ": ibsim's GUID counter for them would run into the next node type's GUIDs";
  }
  const Guid spare = Guid{0xFFFF000000000000ull} + topo_.size() * 2;  // above every ibsim range
  n.guid = n.system_image_guid = spare;
  for (std::size_t p = 0; p < n.ports.size(); ++p) n.ports[p].guid = n.is_switch() || p == 0 ? spare : spare + p;
}

NodeIndex Builder::add_host(const std::string& description) {
  Node n;
  n.type = NodeType::kCa;
  n.description = description;
  n.num_ports = 1;
  n.ports.resize(2);
  assign_guids(n, hosts_, max_hosts_, "hosts");
  return topo_.add_node(std::move(n)).value();  // unique by construction, past the limit too
}

NodeIndex Builder::add_switch(const std::string& description, unsigned ports) {
  Node n;
  n.type = NodeType::kSwitch;
  n.description = description;
  n.num_ports = static_cast<PortNum>(ports);
  n.ports.resize(ports + 1);
  n.lft_cap = kIbsimLinearFdbCap;
  n.ports[0].state = PortState::kActive;
  n.ports[0].phys_state = 5;
  assign_guids(n, switches_, max_switches_, "switches");
  return topo_.add_node(std::move(n)).value();
}

Status Builder::link(NodeIndex a, unsigned pa, NodeIndex b, unsigned pb) {
  if (a == b) return make_error(ErrorCode::kInternal, "generator: self link on " + topo_.node(a).description);
  if (pa > 254 || pb > 254) return make_error(ErrorCode::kInternal, "generator: port above 254");
  Status st = topo_.connect(a, static_cast<PortNum>(pa), b, static_cast<PortNum>(pb));
  if (!st.ok()) return st;
  for (auto [n, p] : {std::pair{a, pa}, std::pair{b, pb}}) {
    Port& port = topo_.mutable_node(n).ports[p];
    port.state = PortState::kActive;
    port.phys_state = 5;         // LinkUp
    port.link_width_active = 2;  // 4x
    port.link_speed_active = 1;  // SDR: ibsim's default, so the netfile needs no w=/s=
  }
  return Ok{};
}

Result<Topology> Builder::finish() && {
  if (!too_many_.empty()) return make_error(ErrorCode::kInvalidInput, too_many_);
  if (!topo_.cas().empty()) {
    topo_.sm_node = topo_.cas().front();
    topo_.sm_port = 1;
  } else if (topo_.size() > 0) {
    topo_.sm_node = 0;
    topo_.sm_port = 0;
  }
  return std::move(topo_);
}

}  // namespace fabric_gen

namespace {

using fabric_gen::bad_shape;
using fabric_gen::Builder;

std::string host_name(std::size_t i) { return "host-" + std::to_string(i); }

// Adds `count` hosts named host-<first>.. and returns the index of the first.
NodeIndex add_hosts(Builder& b, std::size_t first, std::size_t count) {
  NodeIndex start = kNoNode;
  for (std::size_t h = 0; h < count; ++h) {
    NodeIndex i = b.add_host(host_name(first + h));
    if (h == 0) start = i;
  }
  return start;
}

}  // namespace

Result<Topology> make_kary_ntree(unsigned k, unsigned n) {
  if (k < 2 || 2 * k > 254) return bad_shape("kary", "k must be 2..127 (switches have 2k ports)");
  if (n < 1) return bad_shape("kary", "n must be >= 1");
  double hosts_d = std::pow(static_cast<double>(k), static_cast<double>(n));
  if (hosts_d > 65536) return bad_shape("kary", "k^n above 65536 hosts");
  const std::size_t per_level = static_cast<std::size_t>(std::llround(hosts_d)) / k;  // k^(n-1)
  const std::size_t hosts = per_level * k;

  Builder b;
  const NodeIndex first_host = add_hosts(b, 0, hosts);
  // sw[level][w]: level 0 = leaves; w = the switch's (n-1)-digit base-k label read as a number.
  std::vector<std::vector<NodeIndex>> sw(n, std::vector<NodeIndex>(per_level));
  for (unsigned level = 0; level < n; ++level) {
    for (std::size_t w = 0; w < per_level; ++w) {
      sw[level][w] = b.add_switch("sw-L" + std::to_string(level) + "-" + std::to_string(w), 2 * k);
    }
  }
  for (std::size_t h = 0; h < hosts; ++h) {
    SMD_GEN_TRY(b.link(first_host + static_cast<NodeIndex>(h), 1, sw[0][h / k], static_cast<unsigned>(h % k) + 1));
  }
  // Petrini & Vanneschi: <w, l> and <w', l+1> are linked iff their labels differ at most in the digit
  // that level owns. With leaves at level 0, the link between levels `level` and `level+1` varies digit
  // `level` (weight k^level): the child's digit picks the parent's down port, the parent's digit the
  // child's up port.
  std::size_t weight = 1;
  for (unsigned level = 0; level + 1 < n; ++level, weight *= k) {
    for (std::size_t w = 0; w < per_level; ++w) {
      const std::size_t digit = (w / weight) % k;
      const std::size_t base = w - digit * weight;
      for (std::size_t parent_digit = 0; parent_digit < k; ++parent_digit) {
        const std::size_t parent = base + parent_digit * weight;
        SMD_GEN_TRY(b.link(sw[level][w], k + static_cast<unsigned>(parent_digit) + 1, sw[level + 1][parent],
                           static_cast<unsigned>(digit) + 1));
      }
    }
  }
  return std::move(b).finish();
}

Result<Topology> make_leaf_spine(const LeafSpineSpec& s) {
  if (s.leaves < 1 || s.spines < 1 || s.links_per_pair < 1) {
    return bad_shape("leafspine", "leaves, spines and links per pair must be >= 1");
  }
  const unsigned long leaf_ports = s.hosts_per_leaf + static_cast<unsigned long>(s.spines) * s.links_per_pair;
  if (s.spines_with_hosts > s.spines) return bad_shape("leafspine", "spines with hosts must be <= spines");
  const unsigned spine_hosts = s.spines_with_hosts > 0 ? s.hosts_per_spine : 0;
  const unsigned long spine_ports = static_cast<unsigned long>(s.leaves) * s.links_per_pair + spine_hosts;
  if (leaf_ports > 254)
    return bad_shape("leafspine", "a leaf would need " + std::to_string(leaf_ports) + " > 254 ports");
  if (spine_ports > 254) {
    return bad_shape("leafspine", "a spine would need " + std::to_string(spine_ports) + " > 254 ports");
  }
  Builder b;
  const std::size_t leaf_hosts = static_cast<std::size_t>(s.leaves) * s.hosts_per_leaf;
  const NodeIndex first_host =
      add_hosts(b, 0, leaf_hosts + static_cast<std::size_t>(s.spines_with_hosts) * spine_hosts);
  std::vector<NodeIndex> leaf(s.leaves), spine(s.spines);
  for (unsigned l = 0; l < s.leaves; ++l) leaf[l] = b.add_switch("leaf-" + std::to_string(l), leaf_ports);
  for (unsigned sp = 0; sp < s.spines; ++sp) spine[sp] = b.add_switch("spine-" + std::to_string(sp), spine_ports);
  for (unsigned l = 0; l < s.leaves; ++l) {
    for (unsigned h = 0; h < s.hosts_per_leaf; ++h) {
      SMD_GEN_TRY(b.link(first_host + l * s.hosts_per_leaf + h, 1, leaf[l], h + 1));
    }
    for (unsigned sp = 0; sp < s.spines; ++sp) {
      for (unsigned j = 0; j < s.links_per_pair; ++j) {
        SMD_GEN_TRY(
            b.link(leaf[l], s.hosts_per_leaf + sp * s.links_per_pair + j + 1, spine[sp], l * s.links_per_pair + j + 1));
      }
    }
  }
  for (unsigned sp = 0; sp < s.spines_with_hosts; ++sp) {
    for (unsigned h = 0; h < spine_hosts; ++h) {
      const auto host = static_cast<NodeIndex>(first_host + leaf_hosts + sp * spine_hosts + h);
      SMD_GEN_TRY(b.link(host, 1, spine[sp], s.leaves * s.links_per_pair + h + 1));
    }
  }
  return std::move(b).finish();
}

Result<Topology> make_fat_tree3(const FatTree3Spec& s) {
  if (s.pods < 1 || s.leaves_per_pod < 1 || s.aggs_per_pod < 1 || s.cores_per_agg_group < 1) {
    return bad_shape("fattree3", "pods, leaves, aggs and cores per group must be >= 1");
  }
  if (s.hosts_per_leaf > s.leaf_down_ports || s.partial_hosts > s.hosts_per_leaf) {
    return bad_shape("fattree3", "need partial_hosts <= hosts_per_leaf <= leaf_down_ports");
  }
  if (!(s.partial_leaf_fraction >= 0.0 && s.partial_leaf_fraction <= 1.0)) {
    return bad_shape("fattree3", "partial leaf fraction must be within 0..1");
  }
  const unsigned long leaf_ports = static_cast<unsigned long>(s.leaf_down_ports) + s.aggs_per_pod;
  const unsigned long agg_ports = static_cast<unsigned long>(s.leaves_per_pod) + s.cores_per_agg_group;
  if (leaf_ports > 254 || agg_ports > 254 || s.pods > 254) {
    return bad_shape("fattree3", "a switch would need more than 254 ports");
  }
  const std::size_t leaves = static_cast<std::size_t>(s.pods) * s.leaves_per_pod;
  const auto partial = static_cast<std::size_t>(std::ceil(s.partial_leaf_fraction * static_cast<double>(leaves)));
  auto hosts_on = [&](std::size_t leaf) { return leaf >= leaves - partial ? s.partial_hosts : s.hosts_per_leaf; };
  std::size_t hosts = 0;
  for (std::size_t l = 0; l < leaves; ++l) hosts += hosts_on(l);

  Builder b;
  const NodeIndex first_host = hosts > 0 ? add_hosts(b, 0, hosts) : 0;
  std::vector<NodeIndex> leaf(leaves), agg(static_cast<std::size_t>(s.pods) * s.aggs_per_pod);
  std::vector<NodeIndex> core(static_cast<std::size_t>(s.aggs_per_pod) * s.cores_per_agg_group);
  for (std::size_t l = 0; l < leaves; ++l) leaf[l] = b.add_switch("leaf-" + std::to_string(l), leaf_ports);
  for (unsigned p = 0; p < s.pods; ++p) {
    for (unsigned a = 0; a < s.aggs_per_pod; ++a) {
      agg[p * s.aggs_per_pod + a] = b.add_switch("agg-" + std::to_string(p) + "-" + std::to_string(a), agg_ports);
    }
  }
  for (std::size_t c = 0; c < core.size(); ++c) core[c] = b.add_switch("core-" + std::to_string(c), s.pods);

  NodeIndex next_host = first_host;
  for (std::size_t l = 0; l < leaves; ++l) {
    for (unsigned h = 0; h < hosts_on(l); ++h) SMD_GEN_TRY(b.link(next_host++, 1, leaf[l], h + 1));
    const std::size_t pod = l / s.leaves_per_pod;
    const auto in_pod = static_cast<unsigned>(l % s.leaves_per_pod);
    for (unsigned a = 0; a < s.aggs_per_pod; ++a) {
      SMD_GEN_TRY(b.link(leaf[l], s.leaf_down_ports + a + 1, agg[pod * s.aggs_per_pod + a], in_pod + 1));
    }
  }
  for (unsigned p = 0; p < s.pods; ++p) {
    for (unsigned a = 0; a < s.aggs_per_pod; ++a) {
      for (unsigned j = 0; j < s.cores_per_agg_group; ++j) {
        SMD_GEN_TRY(
            b.link(agg[p * s.aggs_per_pod + a], s.leaves_per_pod + j + 1, core[a * s.cores_per_agg_group + j], p + 1));
      }
    }
  }
  return std::move(b).finish();
}

Result<Topology> make_single_switch(unsigned hosts) {
  if (hosts < 1 || hosts > 254) return bad_shape("single", "hosts must be 1..254");
  Builder b;
  const NodeIndex first_host = add_hosts(b, 0, hosts);
  const NodeIndex sw = b.add_switch("sw-0", hosts);
  for (unsigned h = 0; h < hosts; ++h) SMD_GEN_TRY(b.link(first_host + h, 1, sw, h + 1));
  return std::move(b).finish();
}

Result<Topology> make_two_switch(unsigned links, unsigned hosts_per_switch) {
  if (links < 1 || std::uint64_t{links} + hosts_per_switch > 254) {
    return bad_shape("twoswitch", "need links >= 1 and links + hosts per switch <= 254");
  }
  Builder b;
  const NodeIndex first_host = add_hosts(b, 0, 2 * static_cast<std::size_t>(hosts_per_switch));
  const NodeIndex sw0 = b.add_switch("sw-0", links + hosts_per_switch);
  const NodeIndex sw1 = b.add_switch("sw-1", links + hosts_per_switch);
  for (unsigned j = 1; j <= links; ++j) SMD_GEN_TRY(b.link(sw0, j, sw1, j));
  for (unsigned h = 0; h < 2 * hosts_per_switch; ++h) {
    SMD_GEN_TRY(b.link(first_host + h, 1, h < hosts_per_switch ? sw0 : sw1, links + h % hosts_per_switch + 1));
  }
  return std::move(b).finish();
}

}  // namespace smd
