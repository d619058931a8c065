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

/// One answer in the counters: by (attribute, method, status), send errors, cut tables, its attribute's latency.
void count_answer(SaStats& s, AnswerTally& tally, const SaOutcome& o, int rc, double us) {
  if (rc != 0) ++s.send_errors;
  if (o.truncated) ++s.records_truncated;
  ++tally.counts[{o.attr_id, o.method, o.status}];
  tally.latency[o.attr_id].add(us);
}

std::set<Guid> endport_guids(const SaSnapshot* s) {
  std::set<Guid> guids;
  if (!s || !s->fabric) return guids;
  for (const Endport& e : s->fabric->endports()) guids.insert(e.guid);
  return guids;
}

/// The text of the state file at `path` (at most `max` bytes; `kind` names it in errors), nullopt when there
/// is none yet or it cannot be read (logged, "<what> not restored").
std::optional<std::string> read_state_file(const std::string& path, std::size_t max, const char* kind,
                                           const char* what) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return std::nullopt;  // no file yet: nothing to restore
  Result<std::string> text = read_regular_file(path, max, kind);
  if (!text) {
    spdlog::error("SA: {} ({} not restored)", text.error().message, what);
    return std::nullopt;
  }
  return std::move(text).value();
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
  const bool named = (mask & (mad::sa::mask_bit(mad::sa::PathRecordField::kSgid) |
                              mad::sa::mask_bit(mad::sa::PathRecordField::kSlid))) != 0 &&
                     (mask & (mad::sa::mask_bit(mad::sa::PathRecordField::kDgid) |
                              mad::sa::mask_bit(mad::sa::PathRecordField::kDlid))) != 0;
  const unsigned lmc = snap.fabric ? snap.fabric->max_lmc() : 0;
  return named && (1u << (2 * lmc)) <= kInlineLidPairs;
}

}  // namespace

SaAgent::SaAgent(SaAgentOptions options, Sender sender)
    : options_(std::move(options)),
      sender_(std::move(sender)),
      reports_(sender_, options_.report_retries, options_.report_timeout_ms),
      groups_(options_.groups_file),
      inbox_(options_.queue_depth),
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
  inbox_.stop();
  if (thread_.joinable()) thread_.join();
}

bool SaAgent::submit(std::span<const std::uint8_t> mad, const mad::MadAddress& from, bool answer_here) {
  if (answer_here && answer_inline(mad, from)) return true;
  if (inbox_.push(mad, from)) return true;
  std::lock_guard lock(stats_mutex_);
  ++stats_.dropped["queue-full"];
  return false;
}

void SaAgent::publish(std::shared_ptr<const SaSnapshot> snap) {
  snapshot_.store(std::move(snap));
  inbox_.published();
}

void SaAgent::forward(const mad::Notice& notice, Lid issuer_lid) {
  inbox_.forward(notice, issuer_lid);
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
  std::lock_guard lock(stats_mutex_);
  if (outcome.kind == SaOutcome::Kind::kDropped) {
    ++stats_.dropped[outcome.why];
    return true;
  }
  if (outcome.kind != SaOutcome::Kind::kAnswered) return true;
  count_answer(stats_, answers_, outcome, rc, us);
  ++stats_.answered_inline;
  return true;
}

SaStats SaAgent::stats() const {
  const std::size_t depth = inbox_.depth();
  std::lock_guard lock(stats_mutex_);
  SaStats s = stats_;
  s.queue_depth = depth;
  // Counted by number on the hot path; named here, where a reader asked.
  for (const auto& [key, n] : answers_.counts) {
    const auto& [attr_id, method, status] = key;
    s.answers[{attr_name(attr_id), method_name(method), status_name(status)}] += n;
  }
  for (const auto& [attr_id, latency] : answers_.latency) {
    s.latency_by_attribute[attr_name(attr_id)].merge(latency);
    s.latency.merge(latency);
  }
  return s;
}

void SaAgent::run() {
  auto next_lease_check = std::chrono::steady_clock::now() + kLeaseCheck;
  for (;;) {
    SaInbox::Batch in;
    if (!wait_for_work(next_lease_check, in)) {
      flush_groups(std::chrono::steady_clock::now(), /*final=*/true);  // a clean stop leaves the groups as they were
      return;
    }
    const std::shared_ptr<const SaSnapshot> snap = snapshot_.load();
    if (in.published || snap != seen_) {
      on_published(snap, seen_);
      seen_ = snap;
    }
    take_batch(in.requests, *snap);
    drive_port_writes(*snap);
    for (Notify& n : in.notices) forward_notice(n, *snap);
    const auto now = std::chrono::steady_clock::now();
    reports_.retry(now, state_.informs, local_);
    housekeeping(now, next_lease_check, *snap);
  }
}

// The earliest time something the thread owns falls due: a lease check, a Report's retry, a query's or a
// table read's deadline, a groups flush.
std::chrono::steady_clock::time_point SaAgent::next_wakeup(std::chrono::steady_clock::time_point lease_check) const {
  auto deadline = lease_check;
  if (const auto r = reports_.next_deadline()) deadline = std::min(deadline, *r);
  for (const auto& w : waiting_) deadline = std::min(deadline, w.deadline);
  if (table_deadline_) deadline = std::min(deadline, *table_deadline_);
  if (const auto g = groups_.next_due()) deadline = std::min(deadline, *g);
  return deadline;
}

// Sleeps until a MAD, a notice or a snapshot comes, or next_wakeup(); takes them all at once, so the
// receive thread's lock is held for a swap, not for an answer. False when stop() was called.
bool SaAgent::wait_for_work(std::chrono::steady_clock::time_point lease_check, SaInbox::Batch& in) {
  return inbox_.wait_for_batch(next_wakeup(lease_check), in);
}

// The queued MADs: SMP answers to the SA's own table reads and GUIDInfo writes, and SA queries.
void SaAgent::take_batch(const std::deque<Request>& batch, const SaSnapshot& snap) {
  bool tables_moved = false;
  for (const Request& r : batch) {
    if (r.mad[1] == mad::kClassSmiLid) {
      if (alias_writer_.on_answer(r.mad)) continue;
      tables_moved = tables_.on_answer(r.mad) || tables_moved;
      continue;
    }
    answer(r, snap);
  }
  if (tables_moved || !waiting_.empty()) retry_waiting(snap, !tables_moved);
}

// The SMPs the SA sends itself: the GUIDInfo blocks a GUIDInfoRecord Set/Delete changed, and the port
// table reads and alias writes due now; their next deadline wakes the thread.
void SaAgent::drive_port_writes(const SaSnapshot& snap) {
  for (const auto& [port, block] : state_.alias_writes) {
    const Endport* e = snap.fabric ? snap.fabric->by_guid(port) : nullptr;
    if (e) alias_writer_.write(port, e->base_lid, block, state_.aliases.block(port, block));
  }
  state_.alias_writes.clear();
  table_deadline_ = tables_.pump(std::chrono::steady_clock::now());
  if (const auto d = alias_writer_.pump(std::chrono::steady_clock::now()))
    table_deadline_ = table_deadline_ ? std::min(*table_deadline_, *d) : *d;
  log_alias_writes();
}

// A trap the SM forwarded, reported to its subscribers while this SA serves.
void SaAgent::forward_notice(Notify& n, const SaSnapshot& snap) {
  if (!snap.serving) return;
  // A trap an SMA sent has no IssuerGID (SMPs carry none): the Report names the issuer's port.
  const Endport* issuer = snap.fabric ? snap.fabric->by_lid(n.issuer_lid) : nullptr;
  if (issuer && n.notice.issuer_gid == Gid{}) {
    const Gid gid = make_gid(snap.fabric->subnet_prefix(), issuer->guid);
    std::copy(gid.begin(), gid.end(), n.notice.issuer_gid.begin());
  }
  reports_.queue(n.notice, n.issuer_lid, state_.informs, local_);
}

// What follows a batch: leases, the state files, the groups for the SM, and the counters and listings
// the other threads read.
void SaAgent::housekeeping(std::chrono::steady_clock::time_point now,
                           std::chrono::steady_clock::time_point& next_lease_check, const SaSnapshot& snap) {
  if (now >= next_lease_check) {
    next_lease_check = now + kLeaseCheck;
    if (state_.services.expire(unix_now())) state_.services_changed = true;
  }
  const bool list_due = state_.services_changed || now >= next_list_refresh_;
  if (state_.services_changed) persist_services();
  if (state_.aliases_changed) aliases_changed();
  if (state_.mcast_changed || !state_.mcast_events.empty()) groups_changed(snap);
  if (const auto due = groups_.next_due(); due && now >= *due) flush_groups(now);
  std::lock_guard lock(stats_mutex_);
  merge_local();
  stats_.services = state_.services.size();
  stats_.mcast_groups = state_.mcast.groups().size();
  stats_.mcast_members = state_.mcast.member_count();
  stats_.mcast_joins = state_.mcast_joins;
  stats_.mcast_leaves = state_.mcast_leaves;
  stats_.subscriptions = state_.informs.size();
  stats_.serving = snap.serving;
  if (list_due || stats_.subscription_list.size() != state_.informs.size()) {
    next_list_refresh_ = now + kLeaseCheck;
    refresh_lists();
  }
}

void SaAgent::answer(const Request& r, const SaSnapshot& snap) {
  SaOutcome outcome;
  const std::vector<std::uint8_t> resp = answer_mad(snap, state_, r.mad, r.from, unix_now(), outcome);
  if (outcome.kind == SaOutcome::Kind::kReportResp) {
    reports_.acknowledged(static_cast<std::uint32_t>(bits::get64(r.mad.data(), 8) & 0xFFFFFFFFu), r.from.lid, local_);
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
    applied_partitions_.reset();
    spdlog::info("SA: serving (SM LID {}), {} ServiceRecord(s), {} subscription(s)", now->sm_lid,
                 state_.services.size(), state_.informs.size());
  } else if (!now->serving && was_serving) {
    spdlog::info("SA: not serving (this SM is no longer a master with a swept fabric)");
  }
  if (now->serving && now->fabric && (!applied_partitions_ || now->partitions != *applied_partitions_))
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
      reports_.queue(gid_notice(kTrapGidInService, make_gid(now->fabric->subnet_prefix(), g), *now), now->sm_lid, state_.informs, local_);
  }
  for (Guid g : old_guids) {
    if (!new_guids.count(g))
      reports_.queue(gid_notice(kTrapGidOutOfService, make_gid(now->fabric->subnet_prefix(), g), *now), now->sm_lid, state_.informs, local_);
  }
}

// The SA thread counts without the lock and hands its counts over once per batch (called with stats_mutex_
// held): the receive thread, which takes the lock for every answer it counts, never waits on the SA thread's.
void SaAgent::merge_local() {
  for (auto& [why, n] : local_.dropped) stats_.dropped[why] += n;
  for (const auto& [key, n] : local_answers_.counts) answers_.counts[key] += n;
  for (const auto& [attr_id, latency] : local_answers_.latency) answers_.latency[attr_id].merge(latency);
  stats_.reports_sent += local_.reports_sent;
  stats_.reports_acknowledged += local_.reports_acknowledged;
  stats_.subscriptions_dropped += local_.subscriptions_dropped;
  stats_.send_errors += local_.send_errors;
  stats_.records_truncated += local_.records_truncated;
  local_ = SaStats{};
  local_answers_ = AnswerTally{};
}

// The listings `smctl sa` shows (called with stats_mutex_ held).
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
  // Three short lines per alias at most: 64 MiB is millions of VFs.
  const std::optional<std::string> text =
      read_state_file(options_.alias_guids_file, 64u << 20, "alias GUIDs file", "alias GUIDs");
  if (!text) return;
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
  // 176-byte records as hex: 64 MiB is far more than any subnet registers.
  const std::optional<std::string> text =
      read_state_file(options_.services_file, 64u << 20, "services file", "ServiceRecords");
  if (!text) return;
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
      reports_.queue(gid_notice(e.created ? kTrapMcastGroupCreated : kTrapMcastGroupDeleted, e.mgid, snap), snap.sm_lid,
                     state_.informs, local_);
  }
  state_.mcast_events.clear();
  if (!state_.mcast_changed) return;
  state_.mcast_changed = false;
  groups_.changed(std::chrono::steady_clock::now());
}

void SaAgent::flush_groups(std::chrono::steady_clock::time_point now, bool final) {
  groups_.flush(state_.mcast, self_guid_, now, final);
}

void SaAgent::load_groups(bool other_master_seen) {
  if (options_.groups_file.empty()) return;
  const std::optional<std::string> text =
      read_state_file(options_.groups_file, 256u << 20, "groups file", "multicast groups");
  if (!text) return;
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
