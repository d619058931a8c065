// AliasWriter: the SA's GUIDInfo Sets, queued per (port, block), and how each one ended.
#include "smd/sa/alias_writer.h"

#include <utility>

#include "mad/codec/guid_info.h"
#include "mad/transport/umad_transport.h"

namespace smd::sa {

AliasWriter::AliasWriter(Send send, std::uint64_t m_key, std::chrono::milliseconds timeout, unsigned retries)
    : in_flight_(std::move(send), mad::kSaTidBit | kSaWriteTidBit, m_key, timeout, retries) {}

void AliasWriter::write(Guid port, Lid lid, unsigned block, const std::array<Guid, 8>& guids) {
  const Key key{port, block};
  if (!queued_.count(key)) order_.push_back(key);
  queued_[key] = Write{lid, guids};
}

void AliasWriter::finish(const Key& key, const Write& write, Outcome o) {
  o.port = key.first;
  o.block = key.second;
  o.lid = write.lid;
  o.wanted = write.guids;
  outcomes_.push_back(o);
}

std::optional<AliasWriter::Clock::time_point> AliasWriter::pump(Clock::time_point now) {
  for (const auto& [key, write] : in_flight_.expire(now)) finish(key, write, Outcome{.kind = Outcome::Kind::kTimeout});
  // A (port, block) is in flight once at a time: a newer write waits for the older one's end.
  for (std::size_t n = order_.size(); n > 0 && in_flight_.size() < kWindow; --n) {
    const Key key = order_.front();
    order_.pop_front();
    if (in_flight_.contains(key)) {
      order_.push_back(key);
      continue;
    }
    Write write = queued_.at(key);
    queued_.erase(key);
    mad::SmpRequest req;
    req.method = mad::Method::kSet;
    req.attr_id = mad::attr::kGuidInfo;
    req.attr_mod = key.second;
    mad::GuidInfoBlock b;
    b.guids = write.guids;
    b.encode(req.data);
    const Lid to = write.lid;
    in_flight_.start(key, to, req, std::move(write), now);
  }
  return in_flight_.earliest_deadline();
}

bool AliasWriter::on_answer(std::span<const std::uint8_t, mad::kMadSize> mad) {
  if ((mad::tid_low(mad::mad_tid(mad)) & kSaWriteTidBit) == 0) return false;
  const auto answered = in_flight_.take_answer(mad);
  if (!answered) return true;  // ours, but late (re-sent since, or given up): nothing to learn
  const auto& [key, write] = *answered;
  Outcome o;
  const auto header = mad::decode_smp_header(mad);
  if (!header || header->status != 0) {
    o.kind = Outcome::Kind::kRefused;
    o.status = header ? header->status : 0xFFFF;
  } else {
    o.held = mad::GuidInfoBlock::decode(mad::smp_data(mad)).guids;
    o.kind = o.held == write.guids ? Outcome::Kind::kHeld : Outcome::Kind::kDiffers;
  }
  finish(key, write, o);
  return true;
}

}  // namespace smd::sa
