// smd-fabric: writes generated test fabrics as ibsim netfiles, and the ibsim flags a fabric needs.
//
//   smd-fabric kary --k 4 --n 3 -o kary.net
//   smd-fabric rail --sus 4 --hosts-per-su 32 --rails 8 --spines 16 --links-per-pair 2 -o rail.net
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

/// Everything the command line sets; the chosen subcommand's callback turns its part into `generate`.
struct FabricArgs {
  std::string out_path;
  bool ibsim_args = false;
  std::function<smd::Result<smd::Topology>()> generate;
  unsigned k = 4, n = 3;
  smd::LeafSpineSpec ls;
  smd::FatTree3Spec ft;
  smd::RailSpec rail;
  std::string dims_text;
  std::vector<unsigned> dims;
  unsigned torus_hosts = 1;
  unsigned r_switches = 8, r_degree = 4, r_hosts = 1;
  std::uint64_t seed = 1;
  smd::DragonflySpec df;
  unsigned single_hosts = 4;
  unsigned two_links = 2, two_hosts = 2;
};

/// A fabric subcommand with the options every fabric takes (-o, --ibsim-args).
CLI::App* add_fabric(CLI::App& app, const char* name, const char* description, FabricArgs& a) {
  CLI::App* sub = app.add_subcommand(name, description);
  sub->add_option("-o,--output", a.out_path, "netfile to write (default: stdout)");
  sub->add_flag("--ibsim-args", a.ibsim_args,
                "print the ibsim -N/-S/-P flags this fabric needs (the netfile goes only to -o, if given)");
  return sub;
}

/// Trees: k-ary n-trees, leaf/spine, three-level fat trees, rail-optimized fabrics (the shapes ftree and updn
/// are made for).
void add_trees(CLI::App& app, FabricArgs& a) {
  CLI::App* kary = add_fabric(app, "kary", "k-ary n-tree: k^n hosts, n levels of k^(n-1) 2k-port switches", a);
  kary->add_option("--k", a.k, "arity (switch radix / 2)")->required();
  kary->add_option("--n", a.n, "levels")->required();
  kary->callback([&a] { a.generate = [&a] { return smd::make_kary_ntree(a.k, a.n); }; });

  CLI::App* leafspine = add_fabric(app, "leafspine", "2-level leaf/spine", a);
  leafspine->add_option("--leaves", a.ls.leaves)->required();
  leafspine->add_option("--spines", a.ls.spines)->required();
  leafspine->add_option("--hosts-per-leaf", a.ls.hosts_per_leaf)->required();
  leafspine->add_option("--links-per-pair", a.ls.links_per_pair, "parallel cables per leaf-spine pair");
  leafspine->add_option("--hosts-per-spine", a.ls.hosts_per_spine,
                        "hosts cabled to each of the first --spines-with-hosts spines (storage on the core tier)");
  leafspine->add_option("--spines-with-hosts", a.ls.spines_with_hosts, "spines that get --hosts-per-spine hosts");
  leafspine->callback([&a] { a.generate = [&a] { return smd::make_leaf_spine(a.ls); }; });

  CLI::App* fattree3 =
      add_fabric(app, "fattree3", "3-level fat tree of pods (leaf, agg, core), leaves may be partly populated", a);
  fattree3->add_option("--pods", a.ft.pods)->required();
  fattree3->add_option("--leaves-per-pod", a.ft.leaves_per_pod)->required();
  fattree3->add_option("--aggs-per-pod", a.ft.aggs_per_pod)->required();
  fattree3->add_option("--cores-per-agg", a.ft.cores_per_agg_group, "cores joined to each agg position")->required();
  fattree3->add_option("--leaf-down-ports", a.ft.leaf_down_ports)->required();
  fattree3->add_option("--hosts-per-leaf", a.ft.hosts_per_leaf)->required();
  fattree3->add_option("--partial-fraction", a.ft.partial_leaf_fraction,
                       "fraction of leaves (the last ones) partly empty");
  fattree3->add_option("--partial-hosts", a.ft.partial_hosts, "hosts on a partly empty leaf");
  fattree3->callback([&a] { a.generate = [&a] { return smd::make_fat_tree3(a.ft); }; });

  CLI::App* rail = add_fabric(
      app, "rail", "rail-optimized multi-HCA hosts: scalable units, a leaf per rail, spines, optional core", a);
  rail->add_option("--sus", a.rail.sus, "scalable units")->required();
  rail->add_option("--hosts-per-su", a.rail.hosts_per_su)->required();
  rail->add_option("--rails", a.rail.rails, "HCAs per host (\"host-H mlx5_I\"), one leaf per rail per unit")
      ->required();
  rail->add_option("--spines", a.rail.spines, "spine switches (with --cores: rails x spines per rail plane)")
      ->required();
  rail->add_option("--links-per-pair", a.rail.links_per_pair, "parallel cables per leaf-spine pair");
  rail->add_option("--cores", a.rail.cores, "core switches; spines then form one plane per rail (default 0: none)");
  rail->callback([&a] { a.generate = [&a] { return smd::make_rail_optimized(a.rail); }; });
}

/// A grid of switches (torus or mesh): --dims and --hosts-per-switch, built by `make`.
void add_grid(CLI::App& app, FabricArgs& a, const char* name, const char* description,
              smd::Result<smd::Topology> (*make)(const std::vector<unsigned>&, unsigned)) {
  CLI::App* grid = add_fabric(app, name, description, a);
  grid->add_option("--dims", a.dims_text, "sizes like 4, 4x4 or 4x4x2")->required();
  grid->add_option("--hosts-per-switch", a.torus_hosts);
  grid->callback([&a, make] {
    auto parsed = smd::parse_torus_dims(a.dims_text);
    if (!parsed) throw CLI::ValidationError(parsed.error().message);
    a.dims = std::move(parsed).value();
    a.generate = [&a, make] { return make(a.dims, a.torus_hosts); };
  });
}

/// Meshes with cycles: tori, random graphs, dragonflies (where only loop-free engines keep deadlock away).
void add_meshes(CLI::App& app, FabricArgs& a) {
  add_grid(app, a, "torus", "1D ring, 2D or 3D torus of switches", smd::make_torus);
  add_grid(app, a, "mesh", "1D line, 2D or 3D mesh of switches (a torus without wraparound)", smd::make_mesh);

  CLI::App* random = add_fabric(app, "random", "random connected switch graph", a);
  random->add_option("--switches", a.r_switches)->required();
  random->add_option("--degree", a.r_degree, "switch-to-switch ports per switch")->required();
  random->add_option("--hosts-per-switch", a.r_hosts)->required();
  random->add_option("--seed", a.seed)->required();
  random->callback(
      [&a] { a.generate = [&a] { return smd::make_random(a.r_switches, a.r_degree, a.r_hosts, a.seed); }; });

  CLI::App* dragonfly =
      add_fabric(app, "dragonfly", "dragonfly: groups of fully meshed routers, every group pair cabled", a);
  dragonfly->add_option("--groups", a.df.groups)->required();
  dragonfly->add_option("--routers", a.df.routers_per_group, "routers (switches) per group")->required();
  dragonfly->add_option("--hosts-per-router", a.df.hosts_per_router)->required();
  dragonfly->add_option("--global-links", a.df.global_links_per_router, "global cables per router")->required();
  dragonfly->callback([&a] { a.generate = [&a] { return smd::make_dragonfly(a.df); }; });
}

/// The smallest fabrics, for tests of one behaviour: one switch, or two joined by parallel cables.
void add_small(CLI::App& app, FabricArgs& a) {
  CLI::App* single = add_fabric(app, "single", "one switch with N hosts", a);
  single->add_option("--hosts", a.single_hosts)->required();
  single->callback([&a] { a.generate = [&a] { return smd::make_single_switch(a.single_hosts); }; });

  CLI::App* twoswitch = add_fabric(app, "twoswitch", "two switches joined by parallel cables", a);
  twoswitch->add_option("--links", a.two_links)->required();
  twoswitch->add_option("--hosts-per-switch", a.two_hosts)->required();
  twoswitch->callback([&a] { a.generate = [&a] { return smd::make_two_switch(a.two_links, a.two_hosts); }; });
}

/// The netfile to -o or stdout (not to stdout with --ibsim-args alone), then the ibsim flags when asked.
/// Returns the exit code: 0, or 1 when the netfile cannot be written.
int write_outputs(const smd::Topology& topo, const FabricArgs& a) {
  smd::Status st = smd::Ok{};
  if (!a.out_path.empty()) {
    st = smd::write_netfile_file(topo, a.out_path);
  } else if (!a.ibsim_args) {
    st = smd::write_netfile(topo, std::cout);
  }
  if (!st.ok()) {
    std::cerr << "smd-fabric: " << smd::printable_text(st.error().message) << '\n';
    return 1;
  }
  if (a.ibsim_args) {
    const IbsimLimits lim = ibsim_limits(topo);
    std::cout << "-N " << lim.nodes << " -S " << lim.switches << " -P " << lim.ports << '\n';
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"smd-fabric: generate InfiniBand test fabrics as ibsim netfiles"};
  app.require_subcommand(1);
  FabricArgs args;
  add_trees(app, args);
  add_meshes(app, args);
  add_small(app, args);
  CLI11_PARSE(app, argc, argv);

  smd::Result<smd::Topology> topo = args.generate();
  if (!topo.ok()) {
    std::cerr << "smd-fabric: " << smd::printable_text(topo.error().message) << '\n';
    return 2;
  }
  return write_outputs(*topo, args);
}
