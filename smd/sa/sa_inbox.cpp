#include "smd/sa/sa_inbox.h"

#include <algorithm>

namespace smd::sa {

bool SaInbox::push(std::span<const std::uint8_t> mad, const mad::MadAddress& from) {
  bool was_empty = false;
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= depth_) return false;
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

void SaInbox::forward(const mad::Notice& notice, Lid issuer_lid) {
  {
    std::lock_guard lock(mutex_);
    notices_.push_back({notice, issuer_lid});
  }
  wake_.notify_one();
}

void SaInbox::published() {
  {
    std::lock_guard lock(mutex_);
    published_ = true;
  }
  wake_.notify_one();
}

void SaInbox::stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
}

bool SaInbox::wait_for_batch(std::chrono::steady_clock::time_point deadline, Batch& out) {
  std::unique_lock lock(mutex_);
  wake_.wait_until(lock, deadline, [&] { return stop_ || !queue_.empty() || !notices_.empty() || published_; });
  if (stop_) return false;
  out.requests.swap(queue_);
  out.notices.swap(notices_);
  out.published = published_;
  published_ = false;
  return true;
}

std::size_t SaInbox::depth() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

}  // namespace smd::sa
