// mcast_program: program multicast trees into a live fabric with smd's own pieces, for
// tests/integration/mcast_mft_test.sh until the SM does it after joins: discover the fabric
// (smd/sweep/discovery.h), build one tree per group (routing/mcast), verify and write the MFTs
// (smd/program/mcast_programmer.h). Groups: 0xC000 = every CA port (the IPoIB broadcast group with every
// host joined), then `--groups N - 1` more of a seeded random half of the CA ports each.
//
//   mcast_program [--groups N] [--seed S]
//
// Prints one line per group, "MLID PORTGUID..." (the input of check_mft.py --groups), then on stderr the
// counts. Exit status: 0 when every write was believed, 1 otherwise.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "mad/transport/smp_batch.h"
#include "mad/transport/umad_port.h"
#include "mad/transport/umad_transport.h"
#include "routing/mcast/mcast_quality.h"
#include "routing/mcast/mcast_tree.h"
#include "smd/program/mcast_programmer.h"
#include "smd/sweep/discovery.h"

int main(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("mcast_program"));
  unsigned count = 1;
  std::uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--groups") == 0) {
      count = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
    } else if (std::strcmp(argv[i], "--seed") == 0) {
      seed = std::strtoull(argv[i + 1], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: mcast_program [--groups N] [--seed S]\n");
      return 2;
    }
  }
  auto port = smd::mad::UmadPort::open({});
  if (!port.ok()) {
    std::fprintf(stderr, "mcast_program: %s\n", port.error().message.c_str());
    return 1;
  }
  boost::asio::io_context io;
  auto work = boost::asio::make_work_guard(io);
  smd::mad::UmadTransport transport(io, std::move(port.value()));
  smd::SmpBatch batch(io, transport);
  smd::SweepFabric fabric(smd::discover_fabric(batch));
  const smd::Topology& topo = fabric.topo();

  std::vector<smd::McastGroupPorts> groups;
  std::mt19937_64 rng(seed);
  for (unsigned g = 0; g < count; ++g) {
    smd::McastGroupPorts group{static_cast<smd::Lid>(0xC000 + g), {}};
    for (smd::NodeIndex n : topo.cas()) {
      if (g == 0 || rng() % 2 == 0) group.members.emplace_back(n, 1);
    }
    groups.push_back(group);
  }
  const auto tables = smd::McastTreeBuilder(topo).build(groups);
  if (!tables.ok()) {
    std::fprintf(stderr, "mcast_program: %s\n", tables.error().message.c_str());
    return 1;
  }
  smd::AppliedMft applied;
  std::vector<smd::SweepProblem> problems;
  const smd::McastProgramCounts c = smd::program_multicast(batch, fabric, *tables, applied, problems);
  for (const smd::McastGroupPorts& g : groups) {
    std::printf("0x%04x", g.mlid);
    for (const auto& [n, p] : g.members)
      std::printf(" 0x%016llx", static_cast<unsigned long long>(topo.node(n).ports[p].guid));
    std::printf("\n");
  }
  const smd::McastLinkLoad load = smd::mcast_link_load(topo, *tables);
  std::fprintf(stderr,
               "mcast_program: verified=%d groups=%u switches=%u blocks_written=%u blocks_failed=%u top_updates=%u "
               "max_groups_per_link=%u links_used=%zu problems=%zu\n",
               c.verified ? 1 : 0, c.groups, c.switches, c.blocks_written, c.blocks_failed, c.top_updates,
               load.max_groups_per_link, load.links_used, problems.size());
  for (std::size_t i = 0; i < problems.size() && i < 5; ++i)
    std::fprintf(stderr, "%s\n", problems[i].to_string().c_str());
  return c.verified && problems.empty() ? 0 : 1;
}
