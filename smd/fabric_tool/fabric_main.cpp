// smd-fabric: writes generated test fabrics as ibsim netfiles, and the ibsim flags a fabric needs.
//
//   smd-fabric kary --k 4 --n 3 -o kary.net
//   ibsim -s $(smd-fabric kary --k 12 --n 3 --ibsim-args) big.net
#include <CLI/CLI.hpp>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "config/netfile_file.h"
#include "routing/base/safe_text.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/netfile/netfile_writer.h"

namespace {

// ibsim 0.10 sizes its tables once at start (-N nodes, -S switches, -P ports; defaults 2048/256/13312).
// Measured on ibsim 0.10 by shrinking each flag until ibsim panicked: -N bounds all nodes (switches
// included), -S the switches, -P the port records: NumPorts per CA plus NumPorts + 1 per switch (port 0).
// Add 25% plus a little so a test can Link extra nodes from the console, and never go below the
// defaults (smaller tables gain nothing).
struct IbsimLimits {
  std::size_t nodes = 0;
  std::size_t switches = 0;
  std::size_t ports = 0;
};

IbsimLimits ibsim_limits(const smd::Topology& topo) {
  IbsimLimits need;
  need.nodes = topo.size();
  need.switches = topo.switches().size();
  for (const smd::Node& n : topo.nodes()) need.ports += static_cast<std::size_t>(n.num_ports) + (n.is_switch() ? 1 : 0);
  auto margin = [](std::size_t v, std::size_t floor) { return std::max(floor, v + v / 4 + 16); };
  return IbsimLimits{margin(need.nodes, 2048), margin(need.switches, 256), margin(need.ports, 13312)};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"smd-fabric: generate InfiniBand test fabrics as ibsim netfiles"};
  app.require_subcommand(1);
  std::string out_path;
  bool ibsim_args = false;
  auto common = [&](CLI::App* sub) {
    sub->add_option("-o,--output", out_path, "netfile to write (default: stdout)");
    sub->add_flag("--ibsim-args", ibsim_args,
                  "print the ibsim -N/-S/-P flags this fabric needs (the netfile goes only to -o, if given)");
  };
  std::function<smd::Result<smd::Topology>()> generate;

  unsigned k = 4, n = 3;
  CLI::App* kary = app.add_subcommand("kary", "k-ary n-tree: k^n hosts, n levels of k^(n-1) 2k-port switches");
  kary->add_option("--k", k, "arity (switch radix / 2)")->required();
  kary->add_option("--n", n, "levels")->required();
  common(kary);
  kary->callback([&] { generate = [&] { return smd::make_kary_ntree(k, n); }; });

  smd::LeafSpineSpec ls;
  CLI::App* leafspine = app.add_subcommand("leafspine", "2-level leaf/spine");
  leafspine->add_option("--leaves", ls.leaves)->required();
  leafspine->add_option("--spines", ls.spines)->required();
  leafspine->add_option("--hosts-per-leaf", ls.hosts_per_leaf)->required();
  leafspine->add_option("--links-per-pair", ls.links_per_pair, "parallel cables per leaf-spine pair");
  common(leafspine);
  leafspine->callback([&] { generate = [&] { return smd::make_leaf_spine(ls); }; });

  smd::FatTree3Spec ft;
  CLI::App* fattree3 =
      app.add_subcommand("fattree3", "3-level fat tree of pods (leaf, agg, core), leaves may be partly populated");
  fattree3->add_option("--pods", ft.pods)->required();
  fattree3->add_option("--leaves-per-pod", ft.leaves_per_pod)->required();
  fattree3->add_option("--aggs-per-pod", ft.aggs_per_pod)->required();
  fattree3->add_option("--cores-per-agg", ft.cores_per_agg_group, "cores joined to each agg position")->required();
  fattree3->add_option("--leaf-down-ports", ft.leaf_down_ports)->required();
  fattree3->add_option("--hosts-per-leaf", ft.hosts_per_leaf)->required();
  fattree3->add_option("--partial-fraction", ft.partial_leaf_fraction,
                       "fraction of leaves (the last ones) partly empty");
  fattree3->add_option("--partial-hosts", ft.partial_hosts, "hosts on a partly empty leaf");
  common(fattree3);
  fattree3->callback([&] { generate = [&] { return smd::make_fat_tree3(ft); }; });

  std::string dims_text;
  unsigned torus_hosts = 1;
  std::vector<unsigned> dims;
  CLI::App* torus = app.add_subcommand("torus", "1D ring, 2D or 3D torus of switches");
  torus->add_option("--dims", dims_text, "sizes like 4, 4x4 or 4x4x2")->required();
  torus->add_option("--hosts-per-switch", torus_hosts);
  common(torus);
  torus->callback([&] {
    auto parsed = smd::parse_torus_dims(dims_text);
    if (!parsed) throw CLI::ValidationError(parsed.error().message);
    dims = std::move(parsed).value();
    generate = [&] { return smd::make_torus(dims, torus_hosts); };
  });

  unsigned r_switches = 8, r_degree = 4, r_hosts = 1;
  std::uint64_t seed = 1;
  CLI::App* random = app.add_subcommand("random", "random connected switch graph");
  random->add_option("--switches", r_switches)->required();
  random->add_option("--degree", r_degree, "switch-to-switch ports per switch")->required();
  random->add_option("--hosts-per-switch", r_hosts)->required();
  random->add_option("--seed", seed)->required();
  common(random);
  random->callback([&] { generate = [&] { return smd::make_random(r_switches, r_degree, r_hosts, seed); }; });

  smd::DragonflySpec df;
  CLI::App* dragonfly =
      app.add_subcommand("dragonfly", "dragonfly: groups of fully meshed routers, every group pair cabled");
  dragonfly->add_option("--groups", df.groups)->required();
  dragonfly->add_option("--routers", df.routers_per_group, "routers (switches) per group")->required();
  dragonfly->add_option("--hosts-per-router", df.hosts_per_router)->required();
  dragonfly->add_option("--global-links", df.global_links_per_router, "global cables per router")->required();
  common(dragonfly);
  dragonfly->callback([&] { generate = [&] { return smd::make_dragonfly(df); }; });

  unsigned single_hosts = 4;
  CLI::App* single = app.add_subcommand("single", "one switch with N hosts");
  single->add_option("--hosts", single_hosts)->required();
  common(single);
  single->callback([&] { generate = [&] { return smd::make_single_switch(single_hosts); }; });

  unsigned two_links = 2, two_hosts = 2;
  CLI::App* twoswitch = app.add_subcommand("twoswitch", "two switches joined by parallel cables");
  twoswitch->add_option("--links", two_links)->required();
  twoswitch->add_option("--hosts-per-switch", two_hosts)->required();
  common(twoswitch);
  twoswitch->callback([&] { generate = [&] { return smd::make_two_switch(two_links, two_hosts); }; });

  CLI11_PARSE(app, argc, argv);

  smd::Result<smd::Topology> topo = generate();
  if (!topo.ok()) {
    std::cerr << "smd-fabric: " << smd::printable_text(topo.error().message) << '\n';
    return 2;
  }
  if (!out_path.empty()) {
    smd::Status st = smd::write_netfile_file(*topo, out_path);
    if (!st.ok()) {
      std::cerr << "smd-fabric: " << smd::printable_text(st.error().message) << '\n';
      return 1;
    }
  } else if (!ibsim_args) {
    smd::Status st = smd::write_netfile(*topo, std::cout);
    if (!st.ok()) {
      std::cerr << "smd-fabric: " << smd::printable_text(st.error().message) << '\n';
      return 1;
    }
  }
  if (ibsim_args) {
    const IbsimLimits lim = ibsim_limits(*topo);
    std::cout << "-N " << lim.nodes << " -S " << lim.switches << " -P " << lim.ports << '\n';
  }
  return 0;
}
