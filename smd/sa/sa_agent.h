// SaAgent: the SA's own thread. The transport's receive thread hands it every class-0x03 MAD
// (UmadTransport::set_sa_sink) into a bounded queue; the agent answers each from the current SaSnapshot
// (one atomic shared_ptr, published by the SM between sweeps, never locked) and sends the answer itself
// (UmadTransport::send_gmp). So a query never waits for a sweep and a flood of queries never delays one:
// what does not fit in the queue is dropped and counted (sa.queue_depth).
//
// It also owns the multicast groups (McastDb): joins and leaves change them on this thread, each change is
// written to the groups file (atomically) and handed to the SM (set_mcast_sink) at most every 5 ms (a
// join storm coalesces), groups created and
// deleted become traps 66 and 67; the file is read back when this SM starts serving.
//
// It also owns the events (IBA 13.4.8 / 15.2.5.12): Reports of traps 64/65 (a port with a LID joined or
// left between two published sweeps) and of the traps the SM forwards (128, 144), sent to every matching
// InformInfo subscriber and re-sent every sa.report_timeout_ms until a ReportResp, sa.report_retries
// times; a subscriber that answers none loses its subscriptions. And the ServiceRecords' leases, checked
// once a second, with every change written to the services file (atomically) and read back whenever
// this SM starts serving (start-up, takeover), so a standby that shares the file serves the same services.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "mad/codec/notice.h"
#include "mad/transport/mad_channel.h"
#include "smd/sa/alias_writer.h"
#include "smd/sa/groups_flusher.h"
#include "smd/sa/log_budget.h"
#include "smd/sa/sa_dispatch.h"
#include "smd/sa/sa_inbox.h"
#include "smd/sa/sa_reports.h"
#include "smd/sa/sa_snapshot.h"
#include "smd/state/latest_file_writer.h"
#include "smd/state/sa_stats.h"

namespace smd::sa {

struct SaAgentOptions {
  std::size_t queue_depth = 4096;
  unsigned report_retries = 3;
  unsigned report_timeout_ms = 500;
  std::string services_file;        ///< "" = not persisted
  std::string groups_file;          ///< multicast groups with their members; "" = not persisted
  std::uint64_t m_key = 0;          ///< carried by the SA's own table reads (security.m_key)
  unsigned table_timeout_ms = 100;  ///< per attempt of a table read (mad.timeout_ms)
  unsigned table_retries = 3;       ///< re-sends of a table read (mad.retries)
  unsigned table_wait_ms = 3000;    ///< longest a query waits for its tables before it is answered with what is in
  std::string alias_guids_file;     ///< alias GUIDs (GUIDInfoRecord Set); "" = not persisted
  std::uint8_t alias_guid_byte = 0;  ///< sa.alias_guid_byte: bits 39:32 of the GUIDs the SM assigns
};

/// Answers counted by (attribute ID, method, MAD status) and their latency by attribute ID: numbers on the hot
/// path, named only when read (SaAgent::stats).
struct AnswerTally {
  std::map<std::tuple<std::uint16_t, std::uint8_t, std::uint16_t>, std::uint64_t> counts;
  std::map<std::uint16_t, SaLatency> latency;
};

class SaAgent {
 public:
  /// Sends one MAD (any length); thread-safe; returns 0 or -errno.
  using Sender = std::function<int(std::span<const std::uint8_t> mad, const mad::MadAddress& to)>;
  /// Receives every multicast group with its members (by MGID) after each change: a join or leave that
  /// changed something, the groups file read, the policy's groups applied. Called on the SA thread: keep
  /// it cheap (hand the vector over; the SM batches the tree rebuilds).
  using McastSink = std::function<void(std::vector<McastGroupMembers> groups)>;

  SaAgent(SaAgentOptions options, Sender sender);
  /// stop().
  ~SaAgent();
  SaAgent(const SaAgent&) = delete;
  SaAgent& operator=(const SaAgent&) = delete;

  /// Where group changes go (McastSink); set before start().
  void set_mcast_sink(McastSink sink) { groups_.set_sink(std::move(sink)); }
  /// Start the thread.
  void start();
  /// Stop and join the thread; queued requests are dropped. Idempotent.
  void stop();

  /// Queue one MAD (the receive thread calls this). False when the queue is full (counted as dropped).
  /// With `answer_here` (the SM has no SMP outstanding, so the caller holds up nothing) a query that only
  /// reads the snapshot (every record but ServiceRecord, InformInfo(Record) and the port tables) is
  /// answered on the calling thread instead: no hand-over to the SA thread, no wake-up, no queue.
  bool submit(std::span<const std::uint8_t> mad, const mad::MadAddress& from, bool answer_here = false);
  /// Publish what the SA answers from (SM thread, between sweeps). Ports that gained or lost their LID
  /// since the last published fabric become traps 64 and 65.
  void publish(std::shared_ptr<const SaSnapshot> snap);
  /// Forward a trap the SM received (128, 144, ...) to its subscribers; `issuer_lid` is the trap's LID.
  void forward(const mad::Notice& notice, Lid issuer_lid);
  /// A copy of the counters (any thread).
  SaStats stats() const;

 private:
  using Request = SaInbox::Request;
  using Notify = SaInbox::Notify;

  /// The SA thread: wait, take the inbox, answer, then the periodic work (the steps below, in order).
  void run();
  std::chrono::steady_clock::time_point next_wakeup(std::chrono::steady_clock::time_point lease_check) const;
  bool wait_for_work(std::chrono::steady_clock::time_point lease_check, SaInbox::Batch& in);
  void take_batch(const std::deque<Request>& batch, const SaSnapshot& snap);
  void drive_port_writes(const SaSnapshot& snap);
  void forward_notice(Notify& n, const SaSnapshot& snap);
  void housekeeping(std::chrono::steady_clock::time_point now, std::chrono::steady_clock::time_point& next_lease_check,
                    const SaSnapshot& snap);
  bool answer_inline(std::span<const std::uint8_t> mad, const mad::MadAddress& from);
  void answer(const Request& r, const SaSnapshot& snap);
  void on_published(const std::shared_ptr<const SaSnapshot>& now, const std::shared_ptr<const SaSnapshot>& before);
  void persist_services();
  /// Write the alias GUIDs file and publish the alias -> port map for the receive thread.
  void aliases_changed();
  /// Read the alias GUIDs file, once, when this SM first serves (aliases are the ports', whoever was master).
  void load_aliases();
  /// Queue the GUIDInfo writes of every alias block of the ports in `snap`'s fabric for which `wanted` holds.
  void write_aliases(const SaSnapshot& snap, const std::function<bool(Guid)>& wanted);
  /// Log how the GUIDInfo writes ended.
  void log_alias_writes();
  void refresh_lists();
  void merge_local();
  /// Restore the services / groups file when this SM starts serving (state_file_origin.h decides).
  void load_services(bool other_master_seen);
  void load_groups(bool other_master_seen);
  void apply_partitions(const SaSnapshot& snap);
  void groups_changed(const SaSnapshot& snap);
  /// groups_.flush() of the groups (a clean stop: `final`).
  void flush_groups(std::chrono::steady_clock::time_point now, bool final = false);
  void retry_waiting(const SaSnapshot& snap, bool deadline_only);

  SaAgentOptions options_;
  Sender sender_;
  SaReports reports_;    ///< SA-thread only: Reports to subscribers and their retries
  GroupsFlusher groups_;  ///< SA-thread only: group changes to the SM and the groups file
  std::atomic<std::shared_ptr<const SaSnapshot>> snapshot_;
  SaInbox inbox_;  ///< what the other threads hand the SA thread

  mutable std::mutex stats_mutex_;  // guards stats_ and answers_
  SaStats stats_;
  AnswerTally answers_;
  std::thread thread_;
  /// alias -> port GUID as of the SA thread's last change; the receive thread's answers read it.
  std::atomic<std::shared_ptr<const AliasBases>> alias_bases_;
  SaState inline_state_;  ///< the receive thread's: read-only queries touch none of it but `missing`

  // SA-thread only.
  SaState state_;
  SaStats local_;  ///< counts since the last merge_local()
  /// Warnings any requester can cause (a refused join, a cut or unsent answer): 20 lines per 10 s.
  LogBudget requester_log_{20, std::chrono::seconds(10)};
  AnswerTally local_answers_;
  std::shared_ptr<const SaSnapshot> seen_;  // the last snapshot the thread looked at
  bool aliases_loaded_ = false;
  Guid self_guid_ = 0;  // this SM's port GUID (the snapshot's first SmEntry): the stamp on its files
  /// The policy whose groups are in state_.mcast; nullopt: none applied since this SM started serving.
  std::optional<std::shared_ptr<const PartitionsSpec>> applied_partitions_;
  TableCache tables_;
  AliasWriter alias_writer_;
  std::optional<std::chrono::steady_clock::time_point> table_deadline_;
  /// A query waiting for port tables: answered again only once every block it waited for is in (or given
  /// up), or at its deadline, so the blocks of a big query are looked at once each, not once per answer.
  struct Waiting {
    Request request;
    std::chrono::steady_clock::time_point deadline;
    std::vector<TableKey> needs;  ///< the blocks its last pass missed
    std::size_t resolved = 0;     ///< needs[0, resolved) are in or given up
  };
  std::vector<Waiting> waiting_;
  std::chrono::steady_clock::time_point next_list_refresh_{};
};

}  // namespace smd::sa
