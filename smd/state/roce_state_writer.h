// The daemon's RoCE export: after each routing pass, the RoCEv2 plan of the discovered fabric
// (docs/roce.md) goes into state_dir as roce-plan.json (policy roce.export) and frr/<switch>/frr.conf
// (policy roce.frr). Building and writing the plan of a large fabric takes a while (tens of MB on a
// 1728-host tree, over a second on a 13,824-host one), so it runs on a thread of its own at idle CPU
// priority (SCHED_IDLE), queued as soon as the sweep has routed: it fills the time the sweep spends
// waiting for SMP answers, and a sweep, or a repair after a trap, never waits for it. Addresses follow GUID order, not
// discovery order, so they stay put from one sweep to the next, and an unchanged fabric is not rewritten.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "config/policy.h"
#include "routing/model/topology.h"

namespace smd {

/// File names under state_dir.
inline constexpr const char* kRocePlanFile = "roce-plan.json";
inline constexpr const char* kFrrDir = "frr";

/// What one write did; times in milliseconds, sizes in bytes.
struct RoceWriteReport {
  bool unchanged = false;  ///< same cabling and policy as the last write whose files still exist: skipped
  std::size_t hosts = 0, switches = 0;
  std::uintmax_t plan_bytes = 0;  ///< size of roce-plan.json (0 when not written)
  double plan_ms = 0;             ///< building the plan (tiers, ASNs, addresses, FIBs)
  double json_ms = 0;             ///< writing roce-plan.json
  double frr_ms = 0;              ///< bringing frr/ up to date
  std::size_t frr_written = 0, frr_unchanged = 0, frr_removed = 0;  ///< see FrrUpdate
  std::vector<std::string> errors;                                  ///< each names the path or step that failed
  /// The writer thread's scheduling policy when the write ended: SCHED_IDLE while nothing waited for it,
  /// SCHED_OTHER once something did (wait_idle, the destructor); -1 for a write made by write_roce_state.
  int sched_policy = -1;
};

/// A copy of `topo` whose nodes are in node GUID order (switches and CAs alike), cables and the SM's
/// position carried over. The RoCE plan numbers loopbacks, ASNs and prefixes in node order; this order
/// does not depend on which SMP answer came back first during discovery.
Topology in_guid_order(const Topology& topo);

/// True when `a` and `b` have the same nodes in the same order (GUID, type, description, port count)
/// and the same cables (peer node and port of every port): the inputs of the RoCE plan.
bool same_cabling(const Topology& a, const Topology& b);

/// Build the plan of `topo` (taken as is: pass in_guid_order() for stable addresses) and write what
/// `policy` enables into `state_dir`: roce-plan.json atomically, frr/ by update_frr_dir (only the
/// configs that changed). A disabled output's file or tree is removed, so nothing stale is left to read.
/// Synchronous; errors are collected in the report, never thrown.
RoceWriteReport write_roce_state(const Topology& topo, const std::string& state_dir, const RocePolicy& policy);

/// Runs write_roce_state on a background thread, the latest request winning: a request made while a
/// write runs waits for it; one made while another waits replaces it. Each finished write is logged.
/// The thread runs at SCHED_IDLE (sched(7)) so that it only takes CPU nothing else wants; once a caller
/// blocks on it (wait_idle, the destructor) it runs at SCHED_OTHER until that wait is over, because an
/// idle-priority thread gets next to no CPU on a busy host and the caller, `smd --once` or a stopping
/// daemon, would wait on it for as long as the host stays busy. A caller that waits for every write
/// (`smd --once`) keeps it at SCHED_OTHER throughout (set_always_waited_for).
class RoceStateWriter {
 public:
  RoceStateWriter() = default;
  /// Finishes the write in progress and the one waiting (so `smd --once` leaves its files behind), at
  /// normal priority.
  ~RoceStateWriter();
  RoceStateWriter(const RoceStateWriter&) = delete;
  RoceStateWriter& operator=(const RoceStateWriter&) = delete;

  /// Queue a write of the plan of `topo` into `state_dir`. Cheap for the caller: the GUID-order copy
  /// and everything after it happen on the writer's thread.
  void submit(std::shared_ptr<const Topology> topo, const std::string& state_dir, const RocePolicy& policy);

  /// Block until nothing is queued or running; the report of the last write (nullopt: none yet). The
  /// writes it waits for run at normal priority.
  std::optional<RoceWriteReport> wait_idle();

  /// Every write will be waited for (`smd --once`, which exits only when its files are there): run each at
  /// SCHED_OTHER from its start. At SCHED_IDLE on a busy host the plan got no CPU during the sweep and was
  /// built only after it, 95-136 ms after SUBNET UP on the 128-host torus (bench/results/startup-*.md).
  void set_always_waited_for(bool on);

 private:
  struct Job {
    std::shared_ptr<const Topology> topo;
    std::string state_dir;
    RocePolicy policy;
  };
  void run();
  /// Set the writer thread's policy for `hurried_` (SCHED_OTHER) or not (SCHED_IDLE). Called with mutex_
  /// held, so a wait that begins while a job starts cannot be undone by that job's own setting.
  void apply_priority_locked();
  /// One job on the writer thread: skipped when nothing changed since the last complete write.
  RoceWriteReport write_if_changed(const Job& job);

  std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<Job> pending_;
  bool busy_ = false;
  bool stopping_ = false;
  bool hurried_ = false;  // someone waits for the writer: it runs at normal priority
  bool always_waited_for_ = false;  // set_always_waited_for: never SCHED_IDLE
  std::optional<RoceWriteReport> last_report_;
  std::thread thread_;
  // Writer-thread state: what the files on disk were last written from.
  std::shared_ptr<const Topology> written_topo_;
  std::string written_dir_;
  RocePolicy written_policy_;
};

}  // namespace smd
