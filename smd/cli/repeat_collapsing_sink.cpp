#include "smd/cli/repeat_collapsing_sink.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace smd {

RepeatCollapsingSink::RepeatCollapsingSink(std::shared_ptr<spdlog::sinks::sink> inner, std::chrono::seconds window,
                                           std::size_t max_tracked)
    : dist_sink({std::move(inner)}), window_(window), max_tracked_(max_tracked) {}

void RepeatCollapsingSink::close_windows(spdlog::log_clock::time_point now, bool all) {
  if (seen_.empty() || (now < next_close_ && !all)) return;
  next_close_ = spdlog::log_clock::time_point::max();
  const auto ends = [&](const Seen& s) { return all || now >= s.first + window_; };
  std::vector<const Seen*> closing;
  for (const auto& [key, s] : seen_) {
    if (ends(s)) {
      closing.push_back(&s);
    } else {
      next_close_ = std::min(next_close_, s.first + window_);
    }
  }
  // Oldest first, so the summaries read in the order their messages began.
  std::sort(closing.begin(), closing.end(), [](const Seen* a, const Seen* b) { return a->first < b->first; });
  for (const Seen* s : closing) {
    if (s->repeats == 0) continue;
    const auto span = std::chrono::duration_cast<std::chrono::seconds>(s->last - s->first).count();
    const std::string text = s->text + " [" + std::to_string(s->repeats) + " more in " + std::to_string(span) + " s]";
    spdlog::details::log_msg summary(now, spdlog::source_loc{}, spdlog::string_view_t{}, s->level,
                                     spdlog::string_view_t(text.data(), text.size()));
    dist_sink::sink_it_(summary);
  }
  std::erase_if(seen_, [&](const auto& entry) { return ends(entry.second); });
}

void RepeatCollapsingSink::close_ended_windows(spdlog::log_clock::time_point now) {
  const std::lock_guard lock(mutex_);
  close_windows(now);
}

void RepeatCollapsingSink::flush_() {
  close_windows(spdlog::log_clock::now(), true);
  dist_sink::flush_();
}

void RepeatCollapsingSink::sink_it_(const spdlog::details::log_msg& msg) {
  close_windows(msg.time);
  if (msg.level < spdlog::level::warn) {
    dist_sink::sink_it_(msg);
    return;
  }
  const std::string_view payload(msg.payload.data(), msg.payload.size());
  std::string key(1, static_cast<char>(msg.level));
  key.append(payload);
  if (auto it = seen_.find(key); it != seen_.end()) {
    ++it->second.repeats;
    it->second.last = msg.time;
    return;
  }
  if (seen_.size() < max_tracked_) {
    seen_.emplace(std::move(key), Seen{msg.level, std::string(payload), msg.time, msg.time, 0});
    next_close_ = std::min(next_close_, msg.time + window_);
  }
  dist_sink::sink_it_(msg);
}

}  // namespace smd
