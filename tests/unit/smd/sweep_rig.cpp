#include "tests/unit/smd/sweep_rig.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

namespace smd::test {

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "smd-test-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) ADD_FAILURE() << "mkdtemp " << tmpl << " failed";
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ignored;  // a directory already gone is fine; a destructor must not throw
  std::filesystem::remove_all(path_, ignored);
}

std::string first_problem(const SweepSummary& s) { return s.problems.empty() ? "" : s.problems.front().to_string(); }

Uplink sm_leaf_uplink(const Topology& t) {
  const NodeIndex leaf = t.node(t.sm_node).ports[t.sm_port].peer;
  for (const Port& p : t.node(leaf).ports) {
    if (p.connected() && t.node(p.peer).is_switch()) return {leaf, p.num, p.peer};
  }
  return {};
}

SweepRig::SweepRig(Topology t, unsigned retries) : topo(std::move(t)), fabric(io, topo, retries), batch(io, fabric) {
  policy.sm.state_dir = state_dir_.path();
  policy.routing.engines = {"minhop"};
}

SweepRunner& SweepRig::runner() {
  if (!runner_) runner_.emplace(io, fabric, policy);
  return *runner_;
}

void SweepRig::activate_cabled_ports() {
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (node.ports[p].connected()) fabric.set_port(n, p, 4, fabric.lid(n, p));
    }
  }
}

}  // namespace smd::test
