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
#include "smd/sa/log_budget.h"
#include "smd/sa/sa_dispatch.h"
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

/// Answers counted by (attribute ID, method, MAD status); named only when read (SaAgent::stats).
using AnswerCounts = std::map<std::tuple<std::uint16_t, std::uint8_t, std::uint16_t>, std::uint64_t>;

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
  void set_mcast_sink(McastSink sink) { mcast_sink_ = std::move(sink); }
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
  struct Request {
    std::array<std::uint8_t, mad::kMadSize> mad;
    mad::MadAddress from;
    std::chrono::steady_clock::time_point arrived;
  };
  struct PendingReport {
    std::uint32_t subscription = 0;
    std::uint32_t tid = 0;
    std::vector<std::uint8_t> mad;
    mad::MadAddress to;
    unsigned attempts = 0;
    std::chrono::steady_clock::time_point deadline;
  };
  struct Notify {
    mad::Notice notice;
    Lid issuer_lid = 0;
  };

  void run();
  bool answer_inline(std::span<const std::uint8_t> mad, const mad::MadAddress& from);
  void answer(const Request& r, const SaSnapshot& snap);
  void on_published(const std::shared_ptr<const SaSnapshot>& now, const std::shared_ptr<const SaSnapshot>& before);
  void queue_report(const mad::Notice& notice, Lid issuer_lid);
  void send_report(PendingReport& p);
  void pump_reports();
  void retry_reports(std::chrono::steady_clock::time_point now);
  void report_acknowledged(std::uint32_t tid, Lid from);
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
  /// Hand the groups to the SM when a change waits for it, and write the groups file when it is behind and
  /// its duty cycle allows (`now`), or at once when `final` (a clean stop).
  void flush_groups(std::chrono::steady_clock::time_point now, bool final = false);
  void retry_waiting(const SaSnapshot& snap, bool deadline_only);

  SaAgentOptions options_;
  Sender sender_;
  McastSink mcast_sink_;
  std::atomic<std::shared_ptr<const SaSnapshot>> snapshot_;

  mutable std::mutex mutex_;  // guards queue_, notices_, stats_, published_, stop_
  std::condition_variable wake_;
  std::deque<Request> queue_;
  std::vector<Notify> notices_;
  bool published_ = false;
  bool stop_ = false;
  SaStats stats_;
  std::map<std::tuple<std::uint16_t, std::uint8_t, std::uint16_t>, std::uint64_t>
      answer_counts_;  // (attr, method, status)
  std::thread thread_;
  /// alias -> port GUID as of the SA thread's last change; the receive thread's answers read it.
  std::atomic<std::shared_ptr<const AliasBases>> alias_bases_;
  SaState inline_state_;  ///< the receive thread's: read-only queries touch none of it but `missing`

  // SA-thread only.
  SaState state_;
  SaStats local_;  ///< counts since the last merge_local()
  /// Warnings any requester can cause (a refused join, a cut or unsent answer): 20 lines per 10 s.
  LogBudget requester_log_{20, std::chrono::seconds(10)};
  AnswerCounts local_answers_;
  std::shared_ptr<const SaSnapshot> seen_;  // the last snapshot the thread looked at
  bool aliases_loaded_ = false;
  Guid self_guid_ = 0;  // this SM's port GUID (the snapshot's first SmEntry): the stamp on its files
  std::shared_ptr<const PartitionsSpec> applied_partitions_;  // the policy whose groups are in state_.mcast
  bool partitions_applied_ = false;
  std::vector<PendingReport> reports_;
  TableCache tables_;
  AliasWriter alias_writer_;
  std::optional<std::chrono::steady_clock::time_point> table_deadline_;
  /// Groups changed and not yet written or handed over: when they will be (kGroupsFlush after the first).
  std::optional<std::chrono::steady_clock::time_point> groups_flush_due_;
  /// The groups file is behind the groups; its text is made again no earlier than groups_file_after_ (a
  /// few times the last text's making after it), so that it takes a bounded share of the thread that
  /// answers the joins however many groups it holds; groups_writer_ writes it.
  bool groups_file_behind_ = false;
  std::chrono::steady_clock::time_point groups_file_after_{};
  /// Writes the groups file off this thread (made with the first write; none without a groups file).
  std::unique_ptr<LatestFileWriter> groups_writer_;
  /// A query waiting for port tables: answered again only once every block it waited for is in (or given
  /// up), or at its deadline, so the blocks of a big query are looked at once each, not once per answer.
  struct Waiting {
    Request request;
    std::chrono::steady_clock::time_point deadline;
    std::vector<TableKey> needs;  ///< the blocks its last pass missed
    std::size_t resolved = 0;     ///< needs[0, resolved) are in or given up
  };
  std::vector<Waiting> waiting_;
  std::uint32_t next_tid_ = 1;
  std::chrono::steady_clock::time_point next_list_refresh_{};
};

}  // namespace smd::sa
