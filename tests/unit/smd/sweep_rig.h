// SweepRig: the one rig every sweep test runs against (discovery, light, incremental and heavy sweeps).
// It owns the reference Topology, the io_context the SMPs complete on, a FakeFabric answering for that
// topology, an SmpBatch on it, and a Policy for SweepRunner whose state_dir is a temporary directory
// of the rig's own. Tests build the fabric (a generator or by hand), then construct the rig in place.
//
// Lifetimes: the fabric and batch hold references into the rig (to `topo`, `io` and `fabric`), so a rig
// is neither copied nor moved; make it a local, or a unique_ptr when a helper builds it. A SweepRunner a
// test builds itself must go before the rig (it holds `io` and `fabric`, and writes into state_dir);
// runner() keeps that order by itself.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <optional>
#include <string>

#include "config/policy.h"
#include "tests/unit/smd/fake_fabric.h"
#include "mad/transport/smp_batch.h"
#include "routing/model/topology.h"
#include "smd/sweep/sweep_runner.h"

namespace smd::test {

/// A fresh directory below the system temp dir, removed with everything in it when this goes.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// The first problem of a sweep as text, "" when it has none: what a failed check prints.
std::string first_problem(const SweepSummary& s);

class SweepRig {
 public:
  /// The SM sits where `t.sm_node` / `t.sm_port` say; the fake retries each SMP `retries` times (the
  /// transport's mad.retries), so a test can lose every attempt of one request with drop_next().
  explicit SweepRig(Topology t, unsigned retries = 3);
  SweepRig(const SweepRig&) = delete;
  SweepRig& operator=(const SweepRig&) = delete;

  /// A runner on this rig, built at the first call from `policy` as it is then (SweepRunner copies it),
  /// kept until the rig goes. Tests that need a second SM process build their own SweepRunner.
  SweepRunner& runner();

  /// Every cabled port Active, each keeping the LID it holds: a fabric an SM has already configured.
  void activate_cabled_ports();

  Guid guid(NodeIndex n) const { return topo.node(n).guid; }
  /// SMPs sent so far (every attempt, retries included).
  std::uint64_t sent() const { return fabric.stats().sent; }

  Topology topo;  ///< the real fabric: what the fake answers for (tests may re-cable it between sweeps)
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard{io.get_executor()};
  FakeFabric fabric;
  SmpBatch batch;
  Policy policy;  ///< routing.engines {"minhop"}, sm.state_dir the rig's own temporary directory

 private:
  TempDir state_dir_;
  std::optional<SweepRunner> runner_;  // last: goes before the state_dir its RoCE writer may write into
};

/// The cable most directed paths cross, which the trap tests take down: the SM's leaf, its first port
/// cabled to another switch, and that switch (kNoNode for both switches when there is no such port).
struct Uplink {
  NodeIndex leaf = kNoNode;
  PortNum port = 0;
  NodeIndex up = kNoNode;
};
Uplink sm_leaf_uplink(const Topology& t);

/// Names the rows of INSTANTIATE_TEST_SUITE_P by their `name` member: each row keeps the name of the
/// test it was before the cases became rows, so a failure still says which case it is.
struct RowName {
  template <class Row>
  std::string operator()(const ::testing::TestParamInfo<Row>& info) const {
    return info.param.name;
  }
};

}  // namespace smd::test
