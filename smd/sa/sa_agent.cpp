// SaAgent: the SA thread's loop, Reports and their retries, leases and the services file.
#include "smd/sa/sa_agent.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

#include "config/text_file.h"
#include "mad/codec/bits.h"
#include "mad/sa/path_record.h"
#include "mad/sa/sa_mad.h"
#include "smd/sa/mcmember_records.h"
#include "smd/sa/state_file_origin.h"
#include "smd/state/atomic_file.h"

namespace smd::sa {

using namespace mad::sa;
namespace bits = mad::bits;

namespace {

constexpr std::uint32_t kGsiQkey = 0x80010000u;
constexpr std::uint16_t kTrapGidInService = 64;
constexpr std::uint16_t kTrapGidOutOfService = 65;
constexpr std::uint16_t kTrapMcastGroupCreated = 66;
constexpr std::uint16_t kTrapMcastGroupDeleted = 67;
constexpr std::uint32_t kProducerSubnetManager = 4;
constexpr auto kLeaseCheck = std::chrono::seconds(1);
// A join storm changes the groups thousands of times a second: the groups file and the SM's copy follow
// at most this often (the SM waits for a burst to end anyway, smd/sm/daemon_mcast.cpp), and at once when
// the storm is over.
constexpr auto kGroupsFlush = std::chrono::milliseconds(5);
// The groups file of a big storm (1728 groups: ~0.5 MB) takes milliseconds to make: after a text that took
// d the next waits (kGroupsFileRest * d), so making it takes at most 1/(1 + kGroupsFileRest) of the SA
// thread; a thread of its own writes and fsyncs it (LatestFileWriter). A crash loses at most the joins of
// the last (1 + kGroupsFileRest) * d, kGroupsFlush at least, and of the write under way (hosts rejoin
// after the ClientReregister of the next master).
constexpr int kGroupsFileRest = 4;
constexpr std::size_t kReportWindow = 16;         // Reports awaiting their ReportResp at once
constexpr std::size_t kMaxQueuedReports = 65536;  // beyond: dropped and counted

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// Trap 64/65 notice for `gid` (IBA 14.2.5.1 table 130: DataDetails bytes 6..21 hold the GID), issued by
/// the SM: IssuerLID is its LID and IssuerGID its port's GID (the SA's Report carries both, 13.4.8.2).
mad::Notice gid_notice(std::uint16_t trap, const Gid& gid, const SaSnapshot& snap) {
  const Lid sm_lid = snap.sm_lid;
  mad::Notice n;
  n.is_generic = true;
  n.type = mad::notice_type::kInfo;
  n.producer_type = kProducerSubnetManager;
  n.trap_number = trap;
  n.issuer_lid = sm_lid;
  std::copy(gid.begin(), gid.end(), n.data_details.begin() + 6);
  if (const Endport* sm = snap.fabric->by_lid(sm_lid)) {
    const Gid issuer = make_gid(snap.fabric->subnet_prefix(), sm->guid);
    std::copy(issuer.begin(), issuer.end(), n.issuer_gid.begin());
  }
  return n;
}

/// "fe80::10:7": a GID as inet_ntop prints IPv6 (zero runs folded), without <arpa/inet.h>.
std::string gid_text(const Gid& g) {
  std::array<unsigned, 8> words{};
  for (int i = 0; i < 8; ++i) words[i] = static_cast<unsigned>(g[2 * i] << 8 | g[2 * i + 1]);
  int best = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    int j = i;
    while (j < 8 && words[j] == 0) ++j;
    if (j - i > best_len && j - i >= 2) {
      best = i;
      best_len = j - i;
    }
    i = j == i ? i + 1 : j;
  }
  std::string out;
  char buf[8];
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    std::snprintf(buf, sizeof buf, "%x", words[i]);
    out += buf;
  }
  return out;
}

/// One answer in the counters: by (attribute, method, status), send errors, cut tables, latency bucket.
void count_answer(SaStats& s, AnswerCounts& counts, const SaOutcome& o, int rc, double us) {
  if (rc != 0) ++s.send_errors;
  if (o.truncated) ++s.records_truncated;
  ++counts[{o.attr_id, o.method, o.status}];
  std::size_t b = 0;
  while (b < kLatencyBucketsUs.size() && us > kLatencyBucketsUs[b]) ++b;
  ++s.latency_buckets[b];
  s.latency_sum_us += us;
  ++s.latency_count;
}

std::set<Guid> endport_guids(const SaSnapshot* s) {
  std::set<Guid> guids;
  if (!s || !s->fabric) return guids;
  for (const Endport& e : s->fabric->endports()) guids.insert(e.guid);
  return guids;
}

/// Whether a query is small enough to answer on the transport's receive thread, where every SMP answer
/// of the SM's own sweep waits behind it: one Get (a GetTable or GetMulti grows with the fabric) of a
/// read-only attribute, and for a PathRecord one between two named ports with at most
/// kInlineLidPairs LID pairs (a Get that matches nothing walks them all, twice).
bool bounded_for_inline(std::span<const std::uint8_t> mad, const SaSnapshot& snap) {
  constexpr unsigned kInlineLidPairs = 16;
  if (mad[3] != method::kGet) return false;
  const std::uint16_t a = bits::get16(mad.data(), 16);
  if (a == attr::kServiceRecord || a == attr::kInformInfo || a == attr::kInformInfoRecord ||
      a == attr::kPKeyTableRecord || a == attr::kSl2VlTableRecord || a == attr::kVlArbTableRecord ||
      a == attr::kMcMemberRecord || a == attr::kGuidInfoRecord) {
    return false;  // they change the SA thread's state, read it, or wait for port tables
  }
  if (a != attr::kPathRecord) return true;
  const auto header = mad::sa::SaHeader::decode(mad);
  if (!header) return false;
  const std::uint64_t mask = header->comp_mask;
  const bool named = (mask & (mad::sa::pr_mask::kSgid | mad::sa::pr_mask::kSlid)) != 0 &&
                     (mask & (mad::sa::pr_mask::kDgid | mad::sa::pr_mask::kDlid)) != 0;
  const unsigned lmc = snap.fabric ? snap.fabric->max_lmc() : 0;
  return named && (1u << (2 * lmc)) <= kInlineLidPairs;
}

}  // namespace

SaAgent::SaAgent(SaAgentOptions options, Sender sender)
    : options_(std::move(options)),
      sender_(std::move(sender)),
      tables_(
          [this](std::span<const std::uint8_t, mad::kMadSize> smp, Lid to) {
            mad::MadAddress addr;
            addr.lid = to;  // QP0, no Q_Key: an SMP
            return sender_(smp, addr);
          },
          options_.m_key, std::chrono::milliseconds(options_.table_timeout_ms), options_.table_retries),
      alias_writer_(
          [this](std::span<const std::uint8_t, mad::kMadSize> smp, Lid to) {
            mad::MadAddress addr;
            addr.lid = to;  // QP0, no Q_Key: an SMP
            return sender_(smp, addr);
          },
          options_.m_key, std::chrono::milliseconds(options_.table_timeout_ms), options_.table_retries) {
  snapshot_.store(std::make_shared<const SaSnapshot>());
  state_.tables = &tables_;
  state_.aliases = AliasGuidTable(options_.alias_guid_byte);
}

SaAgent::~SaAgent() { stop(); }

void SaAgent::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
  // Named, so per-thread CPU (top -H, /proc/PID/task) shows what the SA costs apart from the SM.
  pthread_setname_np(thread_.native_handle(), "smd-sa");
}

void SaAgent::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool SaAgent::submit(std::span<const std::uint8_t> mad, const mad::MadAddress& from, bool answer_here) {
  if (answer_here && answer_inline(mad, from)) return true;
  bool was_empty = false;
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= options_.queue_depth) {
      ++stats_.dropped["queue-full"];
      return false;
    }
    was_empty = queue_.empty();
    Request& r = queue_.emplace_back();
    std::copy_n(mad.begin(), std::min(mad.size(), r.mad.size()), r.mad.begin());
    r.from = from;
    r.arrived = std::chrono::steady_clock::now();
  }
  // The SA thread takes the whole queue each time it wakes: only the first MAD of a batch needs to wake it.
  if (was_empty) wake_.notify_one();
  return true;
}

void SaAgent::publish(std::shared_ptr<const SaSnapshot> snap) {
  snapshot_.store(std::move(snap));
  {
    std::lock_guard lock(mutex_);
    published_ = true;
  }
  wake_.notify_one();
}

void SaAgent::forward(const mad::Notice& notice, Lid issuer_lid) {
  {
    std::lock_guard lock(mutex_);
    notices_.push_back({notice, issuer_lid});
  }
  wake_.notify_one();
}

// A read-only query answered on the receive thread (see submit). False: not one of those; queue it.
bool SaAgent::answer_inline(std::span<const std::uint8_t> mad, const mad::MadAddress& from) {
  if (mad.size() < kHeaderSize || mad[1] != mad::kClassSubnAdm) return false;
  const std::shared_ptr<const SaSnapshot> snap = snapshot_.load();
  if (!bounded_for_inline(mad, *snap)) return false;
  const auto arrived = std::chrono::steady_clock::now();
  inline_state_.alias_bases = alias_bases_.load();
  SaOutcome outcome;
  const std::vector<std::uint8_t> resp = answer_mad(*snap, inline_state_, mad, from, unix_now(), outcome);
  int rc = 0;
  if (outcome.kind == SaOutcome::Kind::kAnswered) {
    mad::MadAddress to = from;
    to.qkey = kGsiQkey;
    rc = sender_(resp, to);
  }
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - arrived).count();
  std::lock_guard lock(mutex_);
  if (outcome.kind == SaOutcome::Kind::kDropped) {
    ++stats_.dropped[outcome.why];
    return true;
  }
  if (outcome.kind != SaOutcome::Kind::kAnswered) return true;
  count_answer(stats_, answer_counts_, outcome, rc, us);
  ++stats_.answered_inline;
  return true;
}

SaStats SaAgent::stats() const {
  std::lock_guard lock(mutex_);
  SaStats s = stats_;
  s.queue_depth = queue_.size();
  // Counted by number on the hot path; named here, where a reader asked.
  for (const auto& [key, n] : answer_counts_) {
    const auto& [attr_id, method, status] = key;
    s.answers[{attr_name(attr_id), method_name(method), status_name(status)}] += n;
  }
  return s;
}

void SaAgent::run() {
  auto next_lease_check = std::chrono::steady_clock::now() + kLeaseCheck;
  for (;;) {
    std::deque<Request> batch;
    std::vector<Notify> notices;
    bool published = false;
    {
      std::unique_lock lock(mutex_);
      auto deadline = next_lease_check;
      for (const PendingReport& p : reports_) {
        if (p.attempts > 0) deadline = std::min(deadline, p.deadline);  // an unsent Report has no deadline yet
      }
      for (const auto& w : waiting_) deadline = std::min(deadline, w.deadline);
      if (table_deadline_) deadline = std::min(deadline, *table_deadline_);
      if (groups_flush_due_) deadline = std::min(deadline, *groups_flush_due_);
      if (groups_file_behind_) deadline = std::min(deadline, groups_file_after_);
      wake_.wait_until(lock, deadline, [&] { return stop_ || !queue_.empty() || !notices_.empty() || published_; });
      if (stop_) {
        lock.unlock();
        flush_groups(std::chrono::steady_clock::now(), /*final=*/true);  // a clean stop leaves the groups as they were
        return;
      }
      batch.swap(queue_);
      notices.swap(notices_);
      published = published_;
      published_ = false;
    }
    const std::shared_ptr<const SaSnapshot> snap = snapshot_.load();
    if (published || snap != seen_) {
      on_published(snap, seen_);
      seen_ = snap;
    }
    bool tables_moved = false;
    for (const Request& r : batch) {
      if (r.mad[1] == mad::kClassSmiLid) {
        if (alias_writer_.on_answer(r.mad)) continue;
        tables_moved = tables_.on_answer(r.mad) || tables_moved;
        continue;
      }
      answer(r, *snap);
    }
    if (tables_moved || !waiting_.empty()) retry_waiting(*snap, !tables_moved);
    if (!state_.alias_writes.empty()) {
      for (const auto& [port, block] : state_.alias_writes) {
        const Endport* e = snap->fabric ? snap->fabric->by_guid(port) : nullptr;
        if (e) alias_writer_.write(port, e->base_lid, block, state_.aliases.block(port, block));
      }
      state_.alias_writes.clear();
    }
    table_deadline_ = tables_.pump(std::chrono::steady_clock::now());
    if (const auto d = alias_writer_.pump(std::chrono::steady_clock::now()))
      table_deadline_ = table_deadline_ ? std::min(*table_deadline_, *d) : *d;
    log_alias_writes();
    for (Notify& n : notices) {
      if (!snap->serving) continue;
      // A trap an SMA sent has no IssuerGID (SMPs carry none): the Report names the issuer's port.
      const Endport* issuer = snap->fabric ? snap->fabric->by_lid(n.issuer_lid) : nullptr;
      if (issuer && n.notice.issuer_gid == Gid{}) {
        const Gid gid = make_gid(snap->fabric->subnet_prefix(), issuer->guid);
        std::copy(gid.begin(), gid.end(), n.notice.issuer_gid.begin());
      }
      queue_report(n.notice, n.issuer_lid);
    }
    const auto now = std::chrono::steady_clock::now();
    retry_reports(now);
    if (now >= next_lease_check) {
      next_lease_check = now + kLeaseCheck;
      if (state_.services.expire(unix_now())) state_.services_changed = true;
    }
    const bool list_due = state_.services_changed || now >= next_list_refresh_;
    if (state_.services_changed) persist_services();
    if (state_.aliases_changed) aliases_changed();
    if (state_.mcast_changed || !state_.mcast_events.empty()) groups_changed(*snap);
    if ((groups_flush_due_ && now >= *groups_flush_due_) || (groups_file_behind_ && now >= groups_file_after_))
      flush_groups(now);
    std::lock_guard lock(mutex_);
    merge_local();
    stats_.services = state_.services.size();
    stats_.mcast_groups = state_.mcast.groups().size();
    stats_.mcast_members = state_.mcast.member_count();
    stats_.mcast_joins = state_.mcast_joins;
    stats_.mcast_leaves = state_.mcast_leaves;
    stats_.subscriptions = state_.informs.size();
    stats_.serving = snap->serving;
    if (list_due || stats_.subscription_list.size() != state_.informs.size()) {
      next_list_refresh_ = now + kLeaseCheck;
      refresh_lists();
    }
  }
}

void SaAgent::answer(const Request& r, const SaSnapshot& snap) {
  SaOutcome outcome;
  const std::vector<std::uint8_t> resp = answer_mad(snap, state_, r.mad, r.from, unix_now(), outcome);
  if (outcome.kind == SaOutcome::Kind::kReportResp) {
    report_acknowledged(static_cast<std::uint32_t>(bits::get64(r.mad.data(), 8) & 0xFFFFFFFFu), r.from.lid);
    return;
  }
  if (outcome.kind == SaOutcome::Kind::kWaiting) {
    for (const TableKey& k : state_.missing) tables_.want(k);
    waiting_.push_back(Waiting{r, std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.table_wait_ms),
                               std::move(state_.missing), 0});
    state_.missing.clear();
    return;
  }
  if (outcome.kind == SaOutcome::Kind::kDropped) {
    ++local_.dropped[outcome.why];
    return;
  }
  mad::MadAddress to = r.from;
  to.qkey = kGsiQkey;
  const int rc = sender_(resp, to);
  const auto now = std::chrono::steady_clock::now();
  const double us = std::chrono::duration<double, std::micro>(now - r.arrived).count();
  // What a requester did wrong is logged within a budget (requester_log_); the counters keep every case.
  std::uint64_t held_back = 0;
  const auto budget = [&] { return requester_log_.allow(now, held_back); };
  const auto held = [&] {
    return held_back == 0 ? std::string() : fmt::format(" ({} similar line(s) held back before this one)", held_back);
  };
  if (rc != 0 && budget()) {
    spdlog::warn("SA: {} {} answer to lid {} not sent: error {}{}", method_name(outcome.method),
                 attr_name(outcome.attr_id), r.from.lid, -rc, held());
  }
  if (outcome.attr_id == attr::kGuidInfoRecord && !state_.alias_why.empty() && budget()) {
    spdlog::warn("SA: {}{}", state_.alias_why, held());
  }
  if (outcome.attr_id == attr::kMcMemberRecord && outcome.status != status::kOk && budget()) {
    spdlog::warn("SA: {} MCMemberRecord from lid {}: {}{}{}{}", method_name(outcome.method), r.from.lid,
                 status_name(outcome.status), state_.mcast_why.empty() ? "" : ": ", state_.mcast_why, held());
  }
  if (outcome.truncated && budget()) {
    spdlog::warn("SA: {} {} from lid {}: answer cut at sa.max_records ({}){}", method_name(outcome.method),
                 attr_name(outcome.attr_id), r.from.lid, snap.settings.max_records, held());
  }
  count_answer(local_, local_answers_, outcome, rc, us);
}

// Queries that wait for port tables: answered once every block they need is in (or given up), or at
// their deadline with what is in.
void SaAgent::retry_waiting(const SaSnapshot& snap, bool deadline_only) {
  const auto now = std::chrono::steady_clock::now();
  std::vector<Waiting> still;
  for (Waiting& w : waiting_) {
    const bool late = w.deadline <= now;
    if (!late) {
      while (w.resolved < w.needs.size() && !tables_.pending(w.needs[w.resolved])) ++w.resolved;
    }
    if (!late && (deadline_only || w.resolved < w.needs.size())) {
      still.push_back(std::move(w));
      continue;
    }
    state_.answer_partial = late;
    SaOutcome probe;
    std::vector<std::uint8_t> resp = answer_mad(snap, state_, w.request.mad, w.request.from, unix_now(), probe);
    state_.answer_partial = false;
    if (probe.kind == SaOutcome::Kind::kWaiting) {
      for (const TableKey& k : state_.missing) tables_.want(k);
      w.needs = std::move(state_.missing);
      w.resolved = 0;
      state_.missing.clear();
      still.push_back(std::move(w));
      continue;
    }
    if (probe.kind == SaOutcome::Kind::kAnswered) {
      mad::MadAddress to = w.request.from;
      to.qkey = kGsiQkey;
      const int rc = sender_(resp, to);
      const double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - w.request.arrived).count();
      count_answer(local_, local_answers_, probe, rc, us);
    }
  }
  waiting_ = std::move(still);
}

void SaAgent::on_published(const std::shared_ptr<const SaSnapshot>& now,
                           const std::shared_ptr<const SaSnapshot>& before) {
  // LIDs may have moved: the port tables are read again when asked.
  if (!before || now->fabric != before->fabric) {
    tables_.reset();
    // Queries already waiting ask again for what they still miss (or are answered at their deadline).
    for (const Waiting& w : waiting_) {
      for (std::size_t i = w.resolved; i < w.needs.size(); ++i) tables_.want(w.needs[i]);
    }
  }
  const bool was_serving = before && before->serving;
  if (!now->sms.empty()) self_guid_ = now->sms.front().guid;
  if (now->serving && !was_serving) {
    if (now->other_master_seen) {
      // Another master ran the subnet since this SM last served: what it still holds may be gone there.
      // Hosts join and register again after the ClientReregister every port gets from a new master.
      state_.services = ServiceDb{};
      state_.informs = InformDb{};
      state_.mcast = McastDb{};
      state_.services_changed = state_.mcast_changed = true;
    }
    load_services(now->other_master_seen);
    load_groups(now->other_master_seen);
    load_aliases();
    // The ports hold what they were last given only until they reset: write every alias once serving.
    write_aliases(*now, [](Guid) { return true; });
    partitions_applied_ = false;
    spdlog::info("SA: serving (SM LID {}), {} ServiceRecord(s), {} subscription(s)", now->sm_lid,
                 state_.services.size(), state_.informs.size());
  } else if (!now->serving && was_serving) {
    spdlog::info("SA: not serving (this SM is no longer a master with a swept fabric)");
  }
  if (now->serving && now->fabric && (!partitions_applied_ || now->partitions != applied_partitions_))
    apply_partitions(*now);
  if (now->serving && was_serving && now->fabric && before->fabric && now->fabric != before->fabric) {
    // A port that came (back) since the last fabric has an empty GUID table: write its aliases.
    const SaFabric& old = *before->fabric;
    write_aliases(*now, [&old](Guid port) { return old.by_guid(port) == nullptr; });
  }
  if (now->serving && now->fabric && (!before || now->fabric != before->fabric)) {
    // Members whose port left the subnet leave their groups (they join again after ClientReregister).
    bool changed = false;
    const SaFabric& f = *now->fabric;
    std::vector<McastEvent> gone = state_.mcast.drop_absent([&f](Guid g) { return f.by_guid(g) != nullptr; }, &changed);
    state_.mcast_events.insert(state_.mcast_events.end(), gone.begin(), gone.end());
    state_.mcast_changed = state_.mcast_changed || changed;
    if (state_.mcast_changed || !state_.mcast_events.empty()) groups_changed(*now);
    // OpenSM's drop_event_subscriptions: a subscriber that left hears nothing more, even when it returns.
    if (now->settings.drop_absent_subscribers) {
      if (const std::size_t n = state_.informs.drop_absent([&f](Guid g) { return f.by_guid(g) != nullptr; }))
        spdlog::info("SA: {} event subscription(s) of ports that left the subnet dropped", n);
    }
  }
  // Traps 64/65 compare two fabrics this SA served; the first one is the baseline, not news.
  if (!now->serving || !was_serving || !now->fabric || !before->fabric || now->fabric == before->fabric) return;
  const std::set<Guid> old_guids = endport_guids(before.get());
  const std::set<Guid> new_guids = endport_guids(now.get());
  for (Guid g : new_guids) {
    if (!old_guids.count(g))
      queue_report(gid_notice(kTrapGidInService, make_gid(now->fabric->subnet_prefix(), g), *now), now->sm_lid);
  }
  for (Guid g : old_guids) {
    if (!new_guids.count(g))
      queue_report(gid_notice(kTrapGidOutOfService, make_gid(now->fabric->subnet_prefix(), g), *now), now->sm_lid);
  }
}

void SaAgent::queue_report(const mad::Notice& notice, Lid issuer_lid) {
  for (const Subscription& s : state_.informs.subscribers(notice, issuer_lid)) {
    PendingReport p;
    p.subscription = s.id;
    p.tid = next_tid_++;
    SaHeader h;
    h.method = method::kReport;
    h.tid = p.tid;
    h.attr_id = attr::kNotice;
    p.mad.assign(kMadSize, 0);
    h.encode(p.mad);
    std::array<std::uint8_t, mad::kNoticeFullSize> body{};
    notice.encode_full(body);
    std::copy(body.begin(), body.end(), p.mad.begin() + kHeaderSize);
    p.to.lid = s.lid;
    p.to.qpn = s.qpn;
    p.to.qkey = kGsiQkey;
    if (reports_.size() >= kMaxQueuedReports) {
      ++local_.dropped["report-queue-full"];
      continue;
    }
    reports_.push_back(std::move(p));  // sent by pump_reports(), kReportWindow at a time
  }
  pump_reports();
}

// Reports in flight are bounded: one trap can match every subscription, and a burst of thousands of MADs
// at once is what a fabric (and ibsim, which wedges beyond ~64 in flight) cannot take.
void SaAgent::pump_reports() {
  std::size_t in_flight = 0;
  for (const PendingReport& p : reports_) in_flight += p.attempts > 0 ? 1 : 0;
  for (PendingReport& p : reports_) {
    if (in_flight >= kReportWindow) break;
    if (p.attempts == 0) {
      send_report(p);
      ++in_flight;
    }
  }
}

void SaAgent::send_report(PendingReport& p) {
  ++p.attempts;
  p.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.report_timeout_ms);
  const int rc = sender_(p.mad, p.to);
  ++local_.reports_sent;
  if (rc != 0) ++local_.send_errors;
}

void SaAgent::retry_reports(std::chrono::steady_clock::time_point now) {
  std::vector<std::pair<std::uint32_t, Lid>> gone;  // (subscription, the LID its Reports went to)
  for (PendingReport& p : reports_) {
    if (p.attempts == 0 || p.deadline > now) continue;  // not sent yet, or still waiting for its ReportResp
    if (p.attempts <= options_.report_retries) {
      send_report(p);
      continue;
    }
    gone.emplace_back(p.subscription, p.to.lid);
  }
  for (const auto& entry : gone) {
    const auto id = entry.first;  // not a binding: erase_if's lambda captures it (clang < 16 cannot)
    const auto lid = entry.second;
    if (state_.informs.drop(id)) {
      spdlog::warn("SA: subscriber {} at LID {} answered no Report after {} attempts: subscription dropped", id, lid,
                   options_.report_retries + 1);
      ++local_.subscriptions_dropped;
    }
    std::erase_if(reports_, [&](const PendingReport& p) { return p.subscription == id; });
  }
  pump_reports();
}

void SaAgent::report_acknowledged(std::uint32_t tid, Lid from) {
  const auto before = reports_.size();
  // Only the port the Report went to acknowledges it: TIDs are small counters any host could guess.
  std::erase_if(reports_, [&](const PendingReport& p) { return p.tid == tid && p.to.lid == from; });
  if (reports_.size() != before) {
    ++local_.reports_acknowledged;
    pump_reports();
  }
}

// The SA thread counts without the lock and hands its counts over once per batch (called with mutex_
// held): the receive thread, which takes the lock for every MAD it queues, never waits on an answer's count.
void SaAgent::merge_local() {
  for (auto& [why, n] : local_.dropped) stats_.dropped[why] += n;
  for (const auto& [key, n] : local_answers_) answer_counts_[key] += n;
  for (std::size_t b = 0; b < stats_.latency_buckets.size(); ++b)
    stats_.latency_buckets[b] += local_.latency_buckets[b];
  stats_.latency_sum_us += local_.latency_sum_us;
  stats_.latency_count += local_.latency_count;
  stats_.reports_sent += local_.reports_sent;
  stats_.reports_acknowledged += local_.reports_acknowledged;
  stats_.subscriptions_dropped += local_.subscriptions_dropped;
  stats_.send_errors += local_.send_errors;
  stats_.records_truncated += local_.records_truncated;
  local_ = SaStats{};
  local_answers_.clear();
}

// The listings `smctl sa` shows (called with mutex_ held).
void SaAgent::refresh_lists() {
  stats_.service_list.clear();
  for (const ServiceRecord& r : state_.services.list(unix_now())) {
    SaServiceRow row;
    row.name = r.service_name();
    row.id = r.service_id();
    row.gid = gid_text(r.service_gid());
    row.lease_s = r.service_lease() == kInfiniteLease ? -1 : static_cast<std::int64_t>(r.service_lease());
    stats_.service_list.push_back(std::move(row));
  }
  stats_.subscription_list.clear();
  for (const Subscription& s : state_.informs.all()) {
    stats_.subscription_list.push_back({s.id, s.lid, s.info.trap_number, s.info.producer_type});
  }
}

void SaAgent::persist_services() {
  state_.services_changed = false;
  if (options_.services_file.empty()) return;
  if (Status st = write_file_atomic(options_.services_file, stamp_writer(state_.services.to_json(), self_guid_)); !st) {
    spdlog::error("SA: cannot write {}: {}", options_.services_file, st.error().message);
  }
}

void SaAgent::aliases_changed() {
  state_.aliases_changed = false;
  alias_bases_.store(state_.alias_bases);
  if (options_.alias_guids_file.empty()) return;
  if (Status st = write_file_atomic(options_.alias_guids_file, state_.aliases.to_text()); !st) {
    spdlog::error("SA: cannot write {}: {}", options_.alias_guids_file, st.error().message);
  }
}

void SaAgent::write_aliases(const SaSnapshot& snap, const std::function<bool(Guid)>& wanted) {
  if (!snap.fabric) return;
  for (const auto& [port, entries] : state_.aliases.ports()) {
    const Endport* e = snap.fabric->by_guid(port);
    if (!e || !wanted(port)) continue;
    for (unsigned b : state_.aliases.blocks(port)) {
      alias_writer_.write(port, e->base_lid, b, state_.aliases.block(port, b));
    }
  }
}

void SaAgent::log_alias_writes() {
  using Kind = AliasWriter::Outcome::Kind;
  for (const AliasWriter::Outcome& o : alias_writer_.take_outcomes()) {
    const auto guids = [](const std::array<Guid, 8>& g) { return fmt::format("{:#018x}", fmt::join(g, " ")); };
    switch (o.kind) {
      case Kind::kHeld:
        spdlog::info("SA: port {:#018x} (lid {}) holds its alias GUIDs of block {}", o.port, o.lid, o.block);
        break;
      case Kind::kDiffers:
        spdlog::warn("SA: port {:#018x} (lid {}) GUIDInfo block {}: written {}, the port holds {}", o.port, o.lid,
                     o.block, guids(o.wanted), guids(o.held));
        break;
      case Kind::kRefused:
        spdlog::warn("SA: port {:#018x} (lid {}) refused GUIDInfo Set of block {}: MAD status {:#06x}", o.port, o.lid,
                     o.block, o.status);
        break;
      case Kind::kTimeout:
        spdlog::warn("SA: port {:#018x} (lid {}) did not answer GUIDInfo Set of block {}", o.port, o.lid, o.block);
        break;
    }
  }
}

void SaAgent::load_aliases() {
  if (aliases_loaded_ || options_.alias_guids_file.empty()) return;
  aliases_loaded_ = true;
  std::error_code ec;
  if (!std::filesystem::exists(options_.alias_guids_file, ec)) return;  // no file yet: no aliases
  // Three short lines per alias at most: 64 MiB is millions of VFs.
  const Result<std::string> text = read_regular_file(options_.alias_guids_file, 64u << 20, "alias GUIDs file");
  if (!text) {
    spdlog::error("SA: {} (alias GUIDs not restored)", text.error().message);
    return;
  }
  Result<AliasGuidTable> table = AliasGuidTable::from_text(*text, options_.alias_guids_file, options_.alias_guid_byte);
  if (!table) {
    spdlog::error("SA: {} (alias GUIDs not restored)", table.error().message);
    return;
  }
  state_.aliases = std::move(table).value();
  state_.alias_bases = state_.aliases.bases();
  alias_bases_.store(state_.alias_bases);
  spdlog::info("SA: {} alias GUID(s) of {} port(s) restored from {}", state_.alias_bases->size(),
               state_.aliases.ports().size(), options_.alias_guids_file);
}

void SaAgent::load_services(bool other_master_seen) {
  if (options_.services_file.empty()) return;
  std::error_code ec;
  if (!std::filesystem::exists(options_.services_file, ec)) return;  // no file yet: no services
  // 176-byte records as hex: 64 MiB is far more than any subnet registers.
  const Result<std::string> text = read_regular_file(options_.services_file, 64u << 20, "services file");
  if (!text) {
    spdlog::error("SA: {} (ServiceRecords not restored)", text.error().message);
    return;
  }
  if (!restore_state_file(file_writer(*text), self_guid_, other_master_seen)) {
    spdlog::info("SA: {} not restored: this SM wrote it before another master ran the subnet", options_.services_file);
    return;
  }
  if (Status st = state_.services.load_json(*text); !st) {
    spdlog::error("SA: {}: {} (ServiceRecords not restored)", options_.services_file, st.error().message);
    return;
  }
  if (state_.services.expire(unix_now())) state_.services_changed = true;
}

}  // namespace smd::sa

namespace smd::sa {

// The policy's pre-created groups (IPoIB broadcast groups and `groups:`), applied when this SM starts
// serving and whenever the published policy changes.
void SaAgent::apply_partitions(const SaSnapshot& snap) {
  applied_partitions_ = snap.partitions;
  partitions_applied_ = true;
  const PartitionsSpec spec = snap.partitions ? *snap.partitions : default_partitions();
  bool changed = false;
  std::vector<Gid> no_mlid;
  std::vector<Gid> values_kept;
  std::vector<McastEvent> events =
      state_.mcast.apply_policy(spec, mcast_context(snap), &changed, &no_mlid, &values_kept);
  for (const Gid& g : values_kept) {
    spdlog::warn(
        "SA: the policy changes multicast group {} (Q_Key, MTU, rate, SL, P_Key...), but it has members "
        "that joined with its present values: it keeps them until its last member leaves",
        gid_text(g));
  }
  if (!no_mlid.empty()) {
    const std::string first = gid_text(no_mlid.front());
    spdlog::warn(
        "SA: {} multicast group(s) of the partition policy not created: every MLID up to {:#06x} is in use "
        "(first MGID {}); they are tried again when the policy is next applied",
        no_mlid.size(), mcast_context(snap).mlid_top, first);
  }
  state_.mcast_events.insert(state_.mcast_events.end(), events.begin(), events.end());
  state_.mcast_changed = state_.mcast_changed || changed;
  groups_changed(snap);
}

// After a change of the groups: traps 66/67 to their subscribers, the groups file, the SM's copy.
void SaAgent::groups_changed(const SaSnapshot& snap) {
  if (snap.serving && snap.fabric) {
    for (const McastEvent& e : state_.mcast_events)
      queue_report(gid_notice(e.created ? kTrapMcastGroupCreated : kTrapMcastGroupDeleted, e.mgid, snap), snap.sm_lid);
  }
  state_.mcast_events.clear();
  if (!state_.mcast_changed) return;
  state_.mcast_changed = false;
  if (!groups_flush_due_) groups_flush_due_ = std::chrono::steady_clock::now() + kGroupsFlush;
}

void SaAgent::flush_groups(std::chrono::steady_clock::time_point now, bool final) {
  if (groups_flush_due_ && (final || now >= *groups_flush_due_)) {
    groups_flush_due_.reset();
    groups_file_behind_ = !options_.groups_file.empty();
    if (mcast_sink_) mcast_sink_(state_.mcast.snapshot());
  }
  if (groups_file_behind_ && (final || now >= groups_file_after_)) {
    groups_file_behind_ = false;
    if (!groups_writer_) groups_writer_ = std::make_unique<LatestFileWriter>(options_.groups_file, "smd-sa-groups");
    groups_writer_->offer(state_.mcast.to_json(self_guid_));
    const auto done = std::chrono::steady_clock::now();
    groups_file_after_ = done + kGroupsFileRest * (done - now);
  }
  if (final && groups_writer_) groups_writer_->drain();
}

void SaAgent::load_groups(bool other_master_seen) {
  if (options_.groups_file.empty()) return;
  std::error_code ec;
  if (!std::filesystem::exists(options_.groups_file, ec)) return;  // no file yet: no groups
  const Result<std::string> text = read_regular_file(options_.groups_file, 256u << 20, "groups file");
  if (!text) {
    spdlog::error("SA: {} (multicast groups not restored)", text.error().message);
    return;
  }
  const std::optional<Guid> writer = file_writer(*text);
  if (!restore_state_file(writer, self_guid_, other_master_seen)) {
    // That master may have deleted a group and given its MLID to another: restoring would revive it.
    spdlog::info(
        "SA: {} not restored: this SM wrote it before another master ran the subnet (hosts join again "
        "after ClientReregister)",
        options_.groups_file);
    return;
  }
  if (Status st = state_.mcast.load_json(*text); !st) {
    spdlog::error("SA: {}: {} (multicast groups not restored)", options_.groups_file, st.error().message);
    return;
  }
  state_.mcast_changed = true;  // the SM learns the restored groups with the policy's (apply_partitions)
  spdlog::info("SA: {} multicast group(s) restored from {}{}", state_.mcast.groups().size(), options_.groups_file,
               writer && *writer != self_guid_ ? fmt::format(" (written by SM port {:#018x})", *writer) : "");
}

}  // namespace smd::sa
