#include "smd/sa/groups_flusher.h"

#include <algorithm>

namespace smd::sa {

namespace {

constexpr auto kGroupsFlush = std::chrono::milliseconds(5);
constexpr int kGroupsFileRest = 4;

}  // namespace

void GroupsFlusher::changed(Clock::time_point now) {
  if (!flush_due_) flush_due_ = now + kGroupsFlush;
}

void GroupsFlusher::flush(const McastDb& groups, Guid self_guid, Clock::time_point now, bool final) {
  if (flush_due_ && (final || now >= *flush_due_)) {
    flush_due_.reset();
    file_behind_ = !file_.empty();
    if (sink_) sink_(groups.snapshot());
  }
  if (file_behind_ && (final || now >= file_after_)) {
    file_behind_ = false;
    if (!writer_) writer_ = std::make_unique<LatestFileWriter>(file_, "smd-sa-groups");
    writer_->offer(groups.to_json(self_guid));
    const auto done = Clock::now();
    file_after_ = done + kGroupsFileRest * (done - now);
  }
  if (final && writer_) writer_->drain();
}

std::optional<GroupsFlusher::Clock::time_point> GroupsFlusher::next_due() const {
  std::optional<Clock::time_point> due = flush_due_;
  if (file_behind_) due = due ? std::min(*due, file_after_) : file_after_;
  return due;
}

}  // namespace smd::sa
