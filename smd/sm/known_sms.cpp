#include "smd/sm/known_sms.h"

#include <algorithm>
#include <utility>

namespace smd {

namespace {

unsigned masters_in(const std::vector<WatchedSm>& sms) {
  return static_cast<unsigned>(
      std::count_if(sms.begin(), sms.end(), [](const WatchedSm& sm) { return sm.info.state == mad::SmState::kMaster; }));
}

}  // namespace

const WatchedSm* find_sm(const std::vector<WatchedSm>& sms, Guid guid) {
  const auto it = std::find_if(sms.begin(), sms.end(), [guid](const WatchedSm& sm) { return sm.guid == guid; });
  return it == sms.end() ? nullptr : &*it;
}

bool KnownSms::replace(std::vector<WatchedSm> trusted) {
  sms_ = std::move(trusted);
  other_masters_ = masters_in(sms_);
  return other_masters_ > 0;
}

KnownSms::Polled KnownSms::note_polled(const WatchedSm& watched, const mad::SmInfo& answer) {
  Polled p;
  auto it = std::find_if(sms_.begin(), sms_.end(), [&](const WatchedSm& sm) { return sm.guid == watched.guid; });
  if (it == sms_.end()) {
    sms_.push_back(watched);
    it = sms_.end() - 1;
  } else {
    p.was = *it;
  }
  it->info = answer;
  p.now = *it;
  const unsigned masters = masters_in(sms_);
  p.changed = !p.was || p.was->info.state != answer.state || masters != other_masters_;
  other_masters_ = masters;
  return p;
}

bool KnownSms::after_light_sweep(const std::vector<Guid>& gone, unsigned masters, bool awaited) {
  other_masters_ = masters + (awaited ? 1 : 0);
  std::erase_if(sms_, [&gone](const WatchedSm& sm) { return std::find(gone.begin(), gone.end(), sm.guid) != gone.end(); });
  return masters > 0;
}

}  // namespace smd
