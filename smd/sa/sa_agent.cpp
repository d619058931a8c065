// SaAgent: the SA thread's loop, Reports and their retries, leases and the services file.
#include "smd/sa/sa_agent.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "mad/codec/bits.h"
#include "mad/sa/sa_mad.h"
#include "config/text_file.h"
#include "smd/state/atomic_file.h"

namespace smd::sa {

using namespace mad::sa;
namespace bits = mad::bits;

namespace {

constexpr std::uint32_t kGsiQkey = 0x80010000u;
constexpr std::uint16_t kTrapGidInService = 64;
constexpr std::uint16_t kTrapGidOutOfService = 65;
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

std::set<Guid> endport_guids(const SaSnapshot* s) {
  std::set<Guid> guids;
  if (!s || !s->fabric) return guids;
  for (const Endport& e : s->fabric->endports()) guids.insert(e.guid);
  return guids;
}

}  // namespace

SaAgent::SaAgent(SaAgentOptions options, Sender sender) : options_(std::move(options)), sender_(std::move(sender)) {
  snapshot_.store(std::make_shared<const SaSnapshot>());
}

SaAgent::~SaAgent() { stop(); }

void SaAgent::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void SaAgent::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool SaAgent::submit(std::span<const std::uint8_t> mad, const mad::MadAddress& from) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= options_.queue_depth) {
      ++stats_.dropped["queue-full"];
      return false;
    }
    Request r{};
    std::copy_n(mad.begin(), std::min(mad.size(), r.mad.size()), r.mad.begin());
    r.from = from;
    r.arrived = std::chrono::steady_clock::now();
    queue_.push_back(r);
  }
  wake_.notify_one();
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

SaStats SaAgent::stats() const {
  std::lock_guard lock(mutex_);
  SaStats s = stats_;
  s.queue_depth = queue_.size();
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
      for (const PendingReport& p : reports_) deadline = std::min(deadline, p.deadline);
      wake_.wait_until(lock, deadline, [&] { return stop_ || !queue_.empty() || !notices_.empty() || published_; });
      if (stop_) return;
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
    for (const Request& r : batch) answer(r, *snap);
    for (Notify& n : notices) {
      if (!snap->serving) continue;
      // A trap an SMA sent has no IssuerGID (SMPs carry none): the Report names the issuer's port.
      const Endport* issuer = snap->fabric ? snap->fabric->by_lid(n.issuer_lid) : nullptr;
      if (issuer && n.notice.issuer_gid == Gid{}) {
        const Gid gid = make_gid(snap->fabric->subnet_prefix(), issuer->guid);
        std::copy(gid.begin(), gid.end(), n.notice.issuer_gid.begin());
      }
      queue_report(n.notice, n.issuer_lid, *snap);
    }
    const auto now = std::chrono::steady_clock::now();
    retry_reports(now);
    if (now >= next_lease_check) {
      next_lease_check = now + kLeaseCheck;
      if (state_.services.expire(unix_now())) state_.services_changed = true;
    }
    if (state_.services_changed) persist_services();
    std::lock_guard lock(mutex_);
    stats_.services = state_.services.size();
    stats_.subscriptions = state_.informs.size();
    stats_.serving = snap->serving;
  }
}

void SaAgent::answer(const Request& r, const SaSnapshot& snap) {
  SaOutcome outcome;
  const std::vector<std::uint8_t> resp = answer_mad(snap, state_, r.mad, r.from, unix_now(), outcome);
  if (outcome.kind == SaOutcome::Kind::kReportResp) {
    report_acknowledged(static_cast<std::uint32_t>(bits::get64(r.mad.data(), 8) & 0xFFFFFFFFu));
    return;
  }
  if (outcome.kind == SaOutcome::Kind::kDropped) {
    std::lock_guard lock(mutex_);
    ++stats_.dropped[outcome.why];
    return;
  }
  mad::MadAddress to = r.from;
  to.qkey = kGsiQkey;
  const int rc = sender_(resp, to);
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - r.arrived).count();
  if (rc != 0) {
    spdlog::warn("SA: {} {} answer to lid {} not sent: error {}", method_name(outcome.method),
                 attr_name(outcome.attr_id), r.from.lid, -rc);
  }
  if (outcome.truncated) {
    spdlog::warn("SA: {} {} from lid {}: answer cut at sa.max_records ({})", method_name(outcome.method),
                 attr_name(outcome.attr_id), r.from.lid, snap.settings.max_records);
  }
  std::lock_guard lock(mutex_);
  if (rc != 0) ++stats_.send_errors;
  if (outcome.truncated) ++stats_.records_truncated;
  ++stats_.answers[{attr_name(outcome.attr_id), method_name(outcome.method), status_name(outcome.status)}];
  std::size_t b = 0;
  while (b < kLatencyBucketsUs.size() && us > kLatencyBucketsUs[b]) ++b;
  ++stats_.latency_buckets[b];
  stats_.latency_sum_us += us;
  ++stats_.latency_count;
}

void SaAgent::on_published(const std::shared_ptr<const SaSnapshot>& now,
                           const std::shared_ptr<const SaSnapshot>& before) {
  const bool was_serving = before && before->serving;
  if (now->serving && !was_serving) {
    load_services();
    spdlog::info("SA: serving (SM LID {}), {} ServiceRecord(s), {} subscription(s)", now->sm_lid,
                 state_.services.size(), state_.informs.size());
  } else if (!now->serving && was_serving) {
    spdlog::info("SA: not serving (this SM is no longer a master with a swept fabric)");
  }
  // Traps 64/65 compare two fabrics this SA served; the first one is the baseline, not news.
  if (!now->serving || !was_serving || !now->fabric || !before->fabric || now->fabric == before->fabric) return;
  const std::set<Guid> old_guids = endport_guids(before.get());
  const std::set<Guid> new_guids = endport_guids(now.get());
  for (Guid g : new_guids) {
    if (!old_guids.count(g)) queue_report(gid_notice(kTrapGidInService, make_gid(now->fabric->subnet_prefix(), g), *now), now->sm_lid, *now);
  }
  for (Guid g : old_guids) {
    if (!new_guids.count(g)) queue_report(gid_notice(kTrapGidOutOfService, make_gid(now->fabric->subnet_prefix(), g), *now), now->sm_lid, *now);
  }
}

void SaAgent::queue_report(const mad::Notice& notice, Lid issuer_lid, const SaSnapshot& snap) {
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
    (void)snap;
    send_report(p);
    reports_.push_back(std::move(p));
  }
}

void SaAgent::send_report(PendingReport& p) {
  ++p.attempts;
  p.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.report_timeout_ms);
  const int rc = sender_(p.mad, p.to);
  std::lock_guard lock(mutex_);
  ++stats_.reports_sent;
  if (rc != 0) ++stats_.send_errors;
}

void SaAgent::retry_reports(std::chrono::steady_clock::time_point now) {
  std::vector<std::uint32_t> gone;
  for (PendingReport& p : reports_) {
    if (p.deadline > now) continue;
    if (p.attempts <= options_.report_retries) {
      send_report(p);
      continue;
    }
    gone.push_back(p.subscription);
  }
  for (std::uint32_t id : gone) {
    if (state_.informs.drop(id)) {
      spdlog::warn("SA: subscriber {} answered no Report after {} attempts: subscription dropped", id,
                   options_.report_retries + 1);
      std::lock_guard lock(mutex_);
      ++stats_.subscriptions_dropped;
    }
    std::erase_if(reports_, [&](const PendingReport& p) { return p.subscription == id; });
  }
}

void SaAgent::report_acknowledged(std::uint32_t tid) {
  const auto before = reports_.size();
  std::erase_if(reports_, [&](const PendingReport& p) { return p.tid == tid; });
  if (reports_.size() != before) {
    std::lock_guard lock(mutex_);
    ++stats_.reports_acknowledged;
  }
}

void SaAgent::persist_services() {
  state_.services_changed = false;
  if (options_.services_file.empty()) return;
  if (Status st = write_file_atomic(options_.services_file, state_.services.to_json()); !st) {
    spdlog::error("SA: cannot write {}: {}", options_.services_file, st.error().message);
  }
}

void SaAgent::load_services() {
  if (options_.services_file.empty()) return;
  std::error_code ec;
  if (!std::filesystem::exists(options_.services_file, ec)) return;  // no file yet: no services
  // 176-byte records as hex: 64 MiB is far more than any subnet registers.
  const Result<std::string> text = read_regular_file(options_.services_file, 64u << 20, "services file");
  if (!text) {
    spdlog::error("SA: {} (ServiceRecords not restored)", text.error().message);
    return;
  }
  if (Status st = state_.services.load_json(*text); !st) {
    spdlog::error("SA: {}: {} (ServiceRecords not restored)", options_.services_file, st.error().message);
    return;
  }
  if (state_.services.expire(unix_now())) state_.services_changed = true;
}

}  // namespace smd::sa
