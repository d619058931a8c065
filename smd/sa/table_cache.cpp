// TableCache: the SA's own LID-routed SMP Gets (IBA 14.2.1.1), their window, retries and answers.
#include "smd/sa/table_cache.h"

#include "mad/transport/umad_transport.h"

namespace smd::sa {

TableCache::TableCache(Send send, std::uint64_t m_key, std::chrono::milliseconds timeout, unsigned retries)
    : send_(std::move(send)), m_key_(m_key), timeout_(timeout), retries_(retries) {}

const mad::SmpData* TableCache::find(const TableKey& key) const {
  const auto it = done_.find(key);
  return it == done_.end() ? nullptr : &it->second;
}

void TableCache::want(const TableKey& key) {
  if (done_.count(key) || failed_.count(key) || in_flight_.count(key)) return;
  if (waiting_keys_.insert(key).second) waiting_.push_back(key);
}

void TableCache::send(const TableKey& key, InFlight& f, Clock::time_point now) {
  if (f.tid != 0) by_tid_.erase(f.tid);
  f.tid = mad::kSaTidBit | (next_tid_++ & ~(mad::kSaTidBit | kSaWriteTidBit));
  if ((next_tid_ & ~(mad::kSaTidBit | kSaWriteTidBit)) == 0) next_tid_ = 1;
  by_tid_[f.tid] = key;
  ++f.attempts;
  f.deadline = now + timeout_;
  mad::SmpRequest req;
  req.dlid = key.lid;
  req.method = mad::Method::kGet;
  req.attr_id = key.attr;
  req.attr_mod = key.attr_mod;
  req.m_key = m_key_;
  std::array<std::uint8_t, mad::kMadSize> smp{};
  mad::encode_smp(req, f.tid, smp);
  (void)send_(smp, key.lid);  // a failed send is a lost answer: the deadline re-sends it
}

std::optional<TableCache::Clock::time_point> TableCache::pump(Clock::time_point now) {
  std::vector<TableKey> expired;
  for (auto& [key, f] : in_flight_) {
    if (f.deadline <= now) expired.push_back(key);
  }
  for (const TableKey& key : expired) {
    InFlight& f = in_flight_[key];
    if (f.attempts > retries_) {
      by_tid_.erase(f.tid);
      in_flight_.erase(key);
      failed_[key] = true;
    } else {
      send(key, f, now);
    }
  }
  while (in_flight_.size() < kWindow && !waiting_.empty()) {
    const TableKey key = waiting_.front();
    waiting_.pop_front();
    waiting_keys_.erase(key);
    send(key, in_flight_[key], now);
  }
  std::optional<Clock::time_point> earliest;
  for (const auto& [key, f] : in_flight_) {
    if (!earliest || f.deadline < *earliest) earliest = f.deadline;
  }
  return earliest;
}

bool TableCache::on_answer(std::span<const std::uint8_t, mad::kMadSize> mad) {
  const auto it = by_tid_.find(mad::tid_low(mad::mad_tid(mad)));
  if (it == by_tid_.end()) return false;
  const TableKey key = it->second;
  by_tid_.erase(it);
  in_flight_.erase(key);
  const auto header = mad::decode_smp_header(mad);
  if (!header || header->status != 0) {
    failed_[key] = true;  // the port refuses this block (no such table): nothing to retry
    return true;
  }
  done_[key] = mad::smp_data(mad);
  return true;
}

void TableCache::reset() {
  done_.clear();
  failed_.clear();
  in_flight_.clear();
  waiting_.clear();
  waiting_keys_.clear();
  by_tid_.clear();
}

}  // namespace smd::sa
