// TableCache: the SA's own LID-routed SMP Gets (IBA 14.2.1.1), the blocks they read and the ones given up.
#include "smd/sa/table_cache.h"

namespace smd::sa {

TableCache::TableCache(Send send, std::uint64_t m_key, std::chrono::milliseconds timeout, unsigned retries)
    : in_flight_(std::move(send), mad::kSaTidBit, m_key, timeout, retries) {}

const mad::SmpData* TableCache::find(const TableKey& key) const {
  const auto it = done_.find(key);
  return it == done_.end() ? nullptr : &it->second;
}

void TableCache::want(const TableKey& key) {
  if (done_.count(key) || failed_.count(key) || in_flight_.contains(key)) return;
  if (waiting_keys_.insert(key).second) waiting_.push_back(key);
}

std::optional<TableCache::Clock::time_point> TableCache::pump(Clock::time_point now) {
  for (const auto& given_up : in_flight_.expire(now)) failed_[given_up.first] = true;
  while (in_flight_.size() < kWindow && !waiting_.empty()) {
    const TableKey key = waiting_.front();
    waiting_.pop_front();
    waiting_keys_.erase(key);
    mad::SmpRequest req;
    req.method = mad::Method::kGet;
    req.attr_id = key.attr;
    req.attr_mod = key.attr_mod;
    in_flight_.start(key, key.lid, req, {}, now);
  }
  return in_flight_.earliest_deadline();
}

bool TableCache::on_answer(std::span<const std::uint8_t, mad::kMadSize> mad) {
  const auto answered = in_flight_.take_answer(mad);
  if (!answered) return false;
  const TableKey& key = answered->first;
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
}

}  // namespace smd::sa
