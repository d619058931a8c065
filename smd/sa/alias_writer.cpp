// AliasWriter: the SA's GUIDInfo Sets, their window, retries and echoes.
#include "smd/sa/alias_writer.h"

#include <utility>

#include "mad/codec/guid_info.h"
#include "mad/transport/umad_transport.h"

namespace smd::sa {

AliasWriter::AliasWriter(Send send, std::uint64_t m_key, std::chrono::milliseconds timeout, unsigned retries)
    : send_(std::move(send)), m_key_(m_key), timeout_(timeout), retries_(retries) {}

void AliasWriter::write(Guid port, Lid lid, unsigned block, const std::array<Guid, 8>& guids) {
  const Key key{port, block};
  if (!queued_.count(key)) order_.push_back(key);
  queued_[key] = Write{lid, guids};
}

void AliasWriter::send(const Key& key, InFlight& f, Clock::time_point now) {
  if (f.tid != 0) by_tid_.erase(f.tid);
  f.tid = mad::kSaTidBit | kSaWriteTidBit | (next_tid_++ & ~(mad::kSaTidBit | kSaWriteTidBit));
  if ((next_tid_ & ~(mad::kSaTidBit | kSaWriteTidBit)) == 0) next_tid_ = 1;
  by_tid_[f.tid] = key;
  ++f.attempts;
  f.deadline = now + timeout_;
  mad::SmpRequest req;
  req.dlid = f.write.lid;
  req.method = mad::Method::kSet;
  req.attr_id = mad::attr::kGuidInfo;
  req.attr_mod = key.second;
  req.m_key = m_key_;
  mad::GuidInfoBlock b;
  b.guids = f.write.guids;
  b.encode(req.data);
  std::array<std::uint8_t, mad::kMadSize> smp{};
  mad::encode_smp(req, f.tid, smp);
  (void)send_(smp, f.write.lid);  // a failed send is a lost answer: the deadline re-sends it
}

void AliasWriter::finish(const Key& key, Outcome o) {
  o.port = key.first;
  o.block = key.second;
  outcomes_.push_back(o);
}

std::optional<AliasWriter::Clock::time_point> AliasWriter::pump(Clock::time_point now) {
  std::vector<Key> expired;
  for (auto& [key, f] : in_flight_) {
    if (f.deadline <= now) expired.push_back(key);
  }
  for (const Key& key : expired) {
    InFlight& f = in_flight_[key];
    if (f.attempts > retries_) {
      Outcome o;
      o.kind = Outcome::Kind::kTimeout;
      o.lid = f.write.lid;
      o.wanted = f.write.guids;
      by_tid_.erase(f.tid);
      in_flight_.erase(key);
      finish(key, o);
    } else {
      send(key, f, now);
    }
  }
  // A (port, block) is in flight once at a time: a newer write waits for the older one's end.
  for (std::size_t n = order_.size(); n > 0 && in_flight_.size() < kWindow; --n) {
    const Key key = order_.front();
    order_.pop_front();
    if (in_flight_.count(key)) {
      order_.push_back(key);
      continue;
    }
    InFlight& f = in_flight_[key];
    f.write = queued_.at(key);
    queued_.erase(key);
    send(key, f, now);
  }
  std::optional<Clock::time_point> earliest;
  for (const auto& [key, f] : in_flight_) {
    if (!earliest || f.deadline < *earliest) earliest = f.deadline;
  }
  return earliest;
}

bool AliasWriter::on_answer(std::span<const std::uint8_t, mad::kMadSize> mad) {
  const std::uint32_t tid = mad::tid_low(mad::mad_tid(mad));
  if ((tid & kSaWriteTidBit) == 0) return false;
  const auto it = by_tid_.find(tid);
  if (it == by_tid_.end()) return true;  // ours, but late (re-sent since, or given up): nothing to learn
  const Key key = it->second;
  by_tid_.erase(it);
  const InFlight f = in_flight_.at(key);
  in_flight_.erase(key);
  Outcome o;
  o.lid = f.write.lid;
  o.wanted = f.write.guids;
  const auto header = mad::decode_smp_header(mad);
  if (!header || header->status != 0) {
    o.kind = Outcome::Kind::kRefused;
    o.status = header ? header->status : 0xFFFF;
  } else {
    o.held = mad::GuidInfoBlock::decode(mad::smp_data(mad)).guids;
    o.kind = o.held == o.wanted ? Outcome::Kind::kHeld : Outcome::Kind::kDiffers;
  }
  finish(key, o);
  return true;
}

}  // namespace smd::sa
